import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import type { Db } from './db/index.ts';
import { SECRET_MIN_LENGTH } from './secret-length.ts';

/** The secrets the service makes for itself, by their row in the `secrets` table. */
export type SecretName = 'signing' | 'csrf';

/** The file an earlier release generated each secret into, in the data folder. */
const EARLIER_FILE: Record<SecretName, string> = { signing: 'signing-secret', csrf: 'csrf-secret' };

/**
 * A secret generated once into the database, so that what it signs survives restarts and every
 * instance on the database shares it, whatever its data folder. On the first start after an
 * upgrade, the file an earlier release generated into the data folder becomes the secret, so URLs
 * and forms handed out before the upgrade stay valid. Two instances starting at once may both get
 * here; the first insert wins and both read back the same value. Made by the wiring, not by the
 * config parser, which only reads the environment.
 */
export async function databaseSecret(db: Db, dataDir: string, name: SecretName): Promise<string> {
  const stored = await readSecret(db, name);
  if (stored !== undefined) return stored;
  const value = (await earlierFile(dataDir, name)) ?? randomBytes(32).toString('base64url');
  await db
    .insertInto('secrets')
    .values({ name, value, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const agreed = await readSecret(db, name);
  if (agreed === undefined) throw new Error(`the ${name} secret was written to the database but cannot be read back`);
  return agreed;
}

async function readSecret(db: Db, name: SecretName): Promise<string | undefined> {
  const row = await db.selectFrom('secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** The secret an earlier release kept in the data folder, if there is one. */
async function earlierFile(dataDir: string, name: SecretName): Promise<string | undefined> {
  const file = path.join(dataDir, EARLIER_FILE[name]);
  let value: string;
  try {
    value = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Earlier releases generated 43 characters; anything shorter was written by hand, and would be a weak key.
  if (value.length < SECRET_MIN_LENGTH) {
    const instead = name === 'signing' ? ', or set SIGNING_SECRET' : '';
    throw new ConfigError(
      `${file} holds a secret shorter than ${SECRET_MIN_LENGTH} characters: delete it to have one generated${instead}`,
    );
  }
  return value;
}
