/**
 * A browser stand-in for server-side tests: keeps cookies, reads CSRF tokens out of pages and
 * posts forms as application/x-www-form-urlencoded, through the real HTTP stack.
 */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async get(path: string): Promise<WebResponse> {
    return this.send(path, { method: 'GET' });
  }

  /** Posts a form; `_csrf` is read from `csrfFrom` (a page path) unless given in the fields. */
  async post(path: string, fields: Record<string, string>, csrfFrom?: string): Promise<WebResponse> {
    const body = { ...fields };
    if (csrfFrom !== undefined && body._csrf === undefined) body._csrf = csrfToken((await this.get(csrfFrom)).text);
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<WebResponse> {
    return this.post('/dashboard/sign-up', { email, password }, '/dashboard/sign-up');
  }

  async signIn(email: string, password = 'correct horse battery'): Promise<WebResponse> {
    return this.post('/dashboard/sign-in', { email, password }, '/dashboard/sign-in');
  }

  async send(path: string, init: RequestInit): Promise<WebResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(this.baseUrl + path, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text(), location: response.headers.get('location') };
  }
}

export function csrfToken(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}

/** The text of a page without tags, whitespace collapsed: what a reader sees. */
export function visibleText(page: string): string {
  return page.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').trim();
}

let counter = 0;
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}@example.com`;
}
