import { isIPv4, isIPv6 } from 'node:net';

/**
 * The group a client address is counted in by the limits kept per client (sign-in, sign-up,
 * unknown API keys). An IPv4 address is its own group. An IPv6 address counts by its /64: one
 * home or server is given a whole /64 and can take any address in it, so counting single IPv6
 * addresses would give it as many tries as it likes. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, as a dual-stack socket reports an IPv4 client) is the IPv4 address.
 * Anything else (not an IP address) is its own group, as it is.
 *
 * @fastify/rate-limit groups the same way in its default key, but does not export it, and the
 * dashboard's limits need keys of their own (`address:`, `sign-up:`): this one function serves both.
 */
export function clientGroupOf(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = sixteenBitGroupsOf(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a zone `%eth0` dropped, a dotted IPv4 tail read as two). */
function sixteenBitGroupsOf(address: string): number[] {
  const text = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const partsOf = (side: string) => (side === '' ? [] : side.split(':').flatMap(groupsOfPart));
  const left = partsOf(head);
  const right = tail === undefined ? [] : partsOf(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function groupsOfPart(part: string): number[] {
  if (!part.includes('.')) return [Number.parseInt(part, 16)];
  const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}
