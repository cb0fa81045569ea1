import { withoutApiKeys } from './api-key-format.ts';

/**
 * What the server's log lines must never hold, as pino options. Credentials travel in headers
 * (x-api-key, cookies) and in signed URLs' queries, none of which the request line logs; these
 * catch the places they slip through anyway:
 * - a request Node cannot parse is logged with its raw bytes (`err.rawPacket`), headers and all;
 * - a client that puts its API key into the path (`/api/v1/sounds/sc_...`) gets that path logged;
 * - a logged URL with its query would carry a media signature.
 */
export const logRedaction = {
  redact: {
    paths: [
      'req.headers["x-api-key"]',
      'req.headers.authorization',
      'req.headers.cookie',
      'err.rawPacket',
      'err.cause.rawPacket',
    ],
    censor: '[redacted]',
  },
  hooks: { streamWrite: redactSecrets },
};

const SIGNATURE = /([?&]sig=)[^&"\s\\]+/g;

/**
 * Masks key-shaped text down to the key's display prefix (what the dashboard shows, enough to
 * tell which key it was) and a URL's signature to nothing. Runs on each finished line: two
 * regular-expression scans of a line of a few hundred characters.
 */
export function redactSecrets(line: string): string {
  return withoutApiKeys(line).replace(SIGNATURE, '$1[redacted]');
}
