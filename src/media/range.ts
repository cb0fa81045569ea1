/**
 * Reads a single-range `Range: bytes=...` header. Returns null to send the whole file (no header,
 * a stale If-Range, or a form we do not serve such as multiple ranges), 'unsatisfiable' for 416.
 */
export function parseRange(
  header: string | undefined,
  size: number,
  ifRange: string | undefined,
  etag: string,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header || (ifRange !== undefined && ifRange !== etag)) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
