/**
 * The shortest secret accepted: 32 random bytes written in base64url take 43 characters (in base64,
 * 44; in hex, 64). The config parser asks it of each secret in SIGNING_SECRET, secrets.ts of a
 * secret file an earlier release wrote, and the URL signer again, so "secret," adds no empty key
 * whoever builds one.
 */
export const SECRET_MIN_LENGTH = 43;
