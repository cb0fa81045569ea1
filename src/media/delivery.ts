import type { IncomingHttpHeaders } from 'node:http';
import type { ByteRange, MediaStat } from './store.ts';

/** What to answer a GET or HEAD of a stored file with, decided from its stat alone (before any byte is read). */
export interface Delivery {
  status: 200 | 206 | 304 | 412 | 416;
  headers: Record<string, string>;
  /** The bytes to send (a 200 or 206 of a GET); undefined for no body. */
  range?: ByteRange;
}

/**
 * The file as delivered: its size (a tagged file's, head and stored rest), the stored file's time,
 * and what tells apart files of one stored file (a hash of the tags' head), which the ETag carries.
 */
export interface DeliveredStat extends Pick<MediaStat, 'size' | 'modified'> {
  variant?: string | null;
}

/**
 * HTTP's file semantics for a stored file whichever store holds it: ETag and Last-Modified,
 * conditional requests (RFC 9110, 13: 412 and 304) and one byte range (14: 206, 416; a stale
 * If-Range, a malformed or a multiple range gets the whole file). Written here because
 * @fastify/send, which the folder used, reads only the local file system; the ETag keeps its
 * form, so clients' caches stay valid across the change.
 */
export function planDelivery(method: string, request: IncomingHttpHeaders, stat: DeliveredStat): Delivery {
  const variant = stat.variant ? `-${stat.variant}` : '';
  const etag = `W/"${stat.size.toString(16)}-${stat.modified.getTime().toString(16)}${variant}"`;
  const modified = Math.floor(stat.modified.getTime() / 1000) * 1000;
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'last-modified': stat.modified.toUTCString(),
    etag,
  };
  if (preconditionFails(request, etag, modified)) return { status: 412, headers: {} };
  if (notModified(request, etag, modified)) return { status: 304, headers };
  const whole = { start: 0, end: stat.size - 1 };
  let status: 200 | 206 = 200;
  let range: ByteRange = whole;
  const asked = request.range;
  if (
    asked !== undefined &&
    /^\s*bytes=/i.test(asked) &&
    rangeStillValid(oneHeader(request['if-range']), etag, modified)
  ) {
    const ranges = satisfiableRanges(asked, stat.size);
    if (ranges.length === 0) return { status: 416, headers: { 'content-range': `bytes */${stat.size}` } };
    if (ranges.length === 1) {
      status = 206;
      range = ranges[0]!;
      headers['content-range'] = `bytes ${range.start}-${range.end}/${stat.size}`;
    }
  }
  headers['content-length'] = String(range.end - range.start + 1);
  const body = method !== 'HEAD' && range.end >= range.start;
  return { status, headers, ...(body && { range }) };
}

/**
 * The satisfiable parts of `bytes=...`: an end past the file is cut to it, and so is a suffix
 * longer than the file (RFC 9110, 14.1.2).
 */
function satisfiableRanges(header: string, size: number): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (const spec of header.slice(header.indexOf('=') + 1).split(',')) {
    const parts = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) continue;
    let start: number;
    let end: number;
    if (parts[1] === '') {
      start = Math.max(0, size - Number(parts[2]));
      end = Number(parts[2]) === 0 ? -1 : size - 1;
    } else {
      start = Number(parts[1]);
      end = parts[2] === '' ? size - 1 : Math.min(Number(parts[2]), size - 1);
    }
    if (Number.isSafeInteger(start) && start <= end) ranges.push({ start, end });
  }
  return ranges;
}

/** If-Match / If-Unmodified-Since that the file does not meet. */
function preconditionFails(request: IncomingHttpHeaders, etag: string, modified: number): boolean {
  const ifMatch = request['if-match'];
  if (ifMatch && ifMatch.trim() !== '*' && !entityTags(ifMatch).some((tag) => sameTag(tag, etag))) return true;
  const since = Date.parse(request['if-unmodified-since'] ?? '');
  return !Number.isNaN(since) && modified > since;
}

/**
 * If-None-Match (which, when present, decides alone) or If-Modified-Since that the client's copy
 * meets; no-cache asks for the file regardless.
 */
function notModified(request: IncomingHttpHeaders, etag: string, modified: number): boolean {
  if ((request['cache-control'] ?? '').includes('no-cache')) return false;
  const ifNoneMatch = request['if-none-match'];
  if (ifNoneMatch !== undefined)
    return ifNoneMatch.trim() === '*' || entityTags(ifNoneMatch).some((tag) => sameTag(tag, etag));
  const since = Date.parse(request['if-modified-since'] ?? '');
  return !Number.isNaN(since) && modified <= since;
}

/** If-Range: an entity tag that is the file's, or a date the file has not changed since; absent is valid. */
function rangeStillValid(ifRange: string | undefined, etag: string, modified: number): boolean {
  if (ifRange === undefined) return true;
  if (ifRange.includes('"')) return ifRange.trim() === etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && modified <= date;
}

function oneHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function entityTags(list: string): string[] {
  return list
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** Weak comparison (RFC 9110, 8.8.3.2): the W/ prefix is ignored. */
function sameTag(a: string, b: string): boolean {
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}
