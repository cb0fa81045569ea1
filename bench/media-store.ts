/**
 * Media throughput from the folder store against the S3 store (the local Swift of
 * scripts/ci/start-swift.sh): one sound of a given size, fetched whole through its signed URL by
 * concurrent clients for a few seconds. Usage: node --import tsx bench/media-store.ts [MiB] [clients]
 */
import { randomBytes } from 'node:crypto';
import { createTestBucket } from '../test/helpers/s3.ts';
import { startServer } from '../test/helpers/server.ts';
import { addSound } from '../test/helpers/sounds.ts';
import { signedUrl } from '../test/media/helpers.ts';

const mebibytes = Number(process.argv[2] ?? 1);
const clients = Number(process.argv[3] ?? 8);
const SECONDS = 5;

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServer({ env });
  try {
    const { key } = await server.account('enterprise');
    const { id } = await addSound(server.services, { bytes: new Uint8Array(randomBytes(mebibytes * 1024 * 1024)) });
    const url = await signedUrl(server, key, id, 'stream', '');
    let bytes = 0;
    let requests = 0;
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < end) {
          const response = await fetch(url);
          const body = await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${label}: ${response.status} ${Buffer.from(body).toString()}`);
          bytes += body.byteLength;
          requests++;
        }
      }),
    );
    console.log(
      `| ${label} | ${mebibytes} MiB | ${clients} | ${(requests / SECONDS).toFixed(1)} ` +
        `| ${(bytes / SECONDS / 1024 / 1024).toFixed(1)} MiB/s |`,
    );
  } finally {
    await server.close();
  }
}

console.log('| store | file | clients | requests/s | throughput |\n|---|---|---|---|---|');
await measure('folder', { S3_BUCKET: '', S3_ENDPOINT: '' });
const bucket = await createTestBucket();
try {
  await measure('S3 (local Swift)', bucket.env);
} finally {
  await bucket.remove();
}
