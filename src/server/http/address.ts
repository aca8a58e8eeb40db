// The address a request comes from, as the caps on answers in flight count it (turn/answerCaps.ts).
// Behind TRUST_PROXY it is the last entry of X-Forwarded-For, the one the proxy itself appended:
// the entries before it are whatever the client sent, so the first would let anyone name its own.
import { isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The socket's address, or behind a trusted proxy the address the proxy saw. */
export function requestAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.slice(forwarded.lastIndexOf(',') + 1).trim();
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * What one client holds: an IPv4 address, or an IPv6 address's /64 (a host is given a whole
 * /64, so counting its addresses one by one would give it 2^64 caps).
 */
export function addressBucket(address: string): string {
  if (!address.includes(':')) return address;
  const plain = address.replace(/%.*$/, '').toLowerCase();
  if (plain.startsWith('::ffff:') && plain.includes('.')) return plain.slice(7);
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; only the first four groups matter.
  const width = right.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - width)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)))
    .join(':')}::/64`;
}
