// The address a request comes from, and the key a visitor's limits are counted under (issue 34).
// Behind TRUST_PROXY the client's address is the one the proxy appended to X-Forwarded-For: the
// last entry. The entries before it are whatever the client sent, so reading the first one let a
// visitor pick a fresh address for every request.
// Limits are kept per address *key*: an HMAC of the address with the server's secret, so the
// usage and uploads tables never hold an address itself (docs/decisions.md), and per network
// rather than per host for IPv6, where one subscriber holds a whole /64 to rotate through.
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The client's address: the socket's, or behind a trusted proxy the one it forwarded. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The eight groups of an IPv6 address, as numbers; undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * What limits are counted under for an address: an IPv4 address itself (an IPv4-mapped IPv6
 * one too), an IPv6 address's /64 network, anything else as it is.
 */
export function addressNetwork(address: string): string {
  const bare = address.trim().toLowerCase();
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The key of an address's limits: HMAC-SHA256 of its network with the server's secret, 128 bits in base64url. */
export function addressKey(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`client-address:${addressNetwork(address)}`).digest('base64url').slice(0, 22);
}

/** Both, for one server: the address of a request, and the key of that address. */
export function addressReader(trustProxy: boolean, secret: string) {
  return {
    address: (c: Context) => clientAddress(c, trustProxy),
    key: (c: Context) => addressKey(secret, clientAddress(c, trustProxy)),
  };
}
