import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.ts';

/** A signed URL from the REST API, as a client gets one. */
export async function signedUrl(
  server: TestServer,
  key: string,
  id: string,
  what: 'stream' | 'download',
  query: string,
): Promise<string> {
  const response = await server.get(`/api/v1/sounds/${id}/${what}${query}`, { key });
  assert.equal(response.status, 200, query);
  const { data } = (await response.json()) as { data: { stream_url?: string; download_url?: string } };
  return (data.stream_url ?? data.download_url)!;
}

/** What the account has left today, as the API's headers say after one more request. */
export async function remaining(server: TestServer, key: string): Promise<number> {
  const response = await server.get('/api/v1/sounds?limit=1', { key });
  assert.equal(response.status, 200);
  await response.arrayBuffer();
  return Number(response.headers.get('x-ratelimit-remaining'));
}
