import { get } from 'node:http';

/**
 * The status of a GET sent with exactly these headers. fetch() adds `Cache-Control: no-cache` to a
 * request that carries its own If-None-Match (the Fetch standard), and a server rightly answers
 * such a request in full; a conditional GET as a browser's cache sends it needs a plain client.
 */
export function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    }).on('error', reject);
  });
}
