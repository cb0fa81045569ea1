import { request as httpRequest } from 'node:http';

/**
 * A browser stand-in for server-side tests: keeps cookies, reads CSRF tokens out of pages and
 * posts forms as application/x-www-form-urlencoded, through the real HTTP stack. A client connects
 * from 127.0.0.1 unless given another address in 127.0.0.0/8 (`ownAddress()`: as a visitor on
 * another network would), so the limits counted per client address can count clients apart.
 */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** The local address it connects from. */
    readonly address = '127.0.0.1',
  ) {}

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

  async send(
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<WebResponse> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await sendFrom(this.address, new URL(this.baseUrl + path), init.method, headers, init.body);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/** One request from a chosen local address (fetch cannot choose one), redirects not followed. */
function sendFrom(
  localAddress: string,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<WebResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers, localAddress, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : [value ?? '']) responseHeaders.append(name, one);
        }
        resolve({
          status: incoming.statusCode ?? 0,
          headers: responseHeaders,
          text: Buffer.concat(chunks).toString('utf8'),
          location: responseHeaders.get('location'),
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

let addressCounter = 0;
/** 127.0.1.2, 127.0.1.3, ...: a loopback address no other caller of this test process got. */
export function ownAddress(): string {
  addressCounter += 1;
  return `127.0.${1 + Math.floor(addressCounter / 250)}.${1 + (addressCounter % 250)}`;
}

export function csrfToken(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}

/** The text of a page without tags, whitespace collapsed: what a reader sees. */
export function visibleText(page: string): string {
  return page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

let counter = 0;
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}@example.com`;
}
