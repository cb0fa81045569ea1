/** Thrown by a route to answer with the dashboard's error page instead of its usual content. */
export class PageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly title: string,
    message: string,
    /** Headers the answer carries besides the page's own (Retry-After on a 429). */
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

/** Thrown to send the browser elsewhere (303, so a POST is followed by a GET). */
export class Redirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}
