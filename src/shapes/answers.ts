/**
 * Parts of an answer that REST and MCP (both over HTTP) give alike: an error that knows its status
 * and body, the 403 body's upgrade link, the rate-limit headers.
 */

/**
 * An error that already knows its HTTP answer. Everything else thrown in a handler becomes a
 * 500 with a generic message; the details go to the log only.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { error: string; [field: string]: unknown },
    readonly headers: Record<string, string | number> = {},
  ) {
    super(body.error);
  }
}

/** Where a free account is sent to get API access (the 403 body's `upgrade_url`). */
export function upgradeUrl(baseUrl: string): string {
  return `${baseUrl}/dashboard/upgrade`;
}
