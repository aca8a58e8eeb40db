// Who owns what a request creates: the logged-in user, or an anonymous browser through a
// random device cookie (so anonymous visitors own their sessions too). A visitor's limits are
// also counted under the key of the address the request comes from (http/clientAddress.ts), so
// a visitor who drops the cookie is still counted with the others from that address.
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { rankOf, ROLE_RANKS, type AppEnv, type UserRow } from '../../core/index.ts';

export const DEVICE_COOKIE = 'device';

export interface Owner {
  user: UserRow | null;
  deviceId: string;
  root: boolean;
  /** A visitor's address key (clientAddress.ts's addressKey); none for a user, or where no limit needs it. */
  address?: string;
}

// New device ids are cut from a pool of random bytes drawn 4 KB at a time: a call into the
// CSPRNG for each new visitor took about 15 µs of a loaded server's CPU (--cpu-prof). Every
// byte is used once; randomUUID keeps a pool the same way.
const POOL_BYTES = 4096;
const DEVICE_ID_BYTES = 18;
let pool = Buffer.alloc(0);
let taken = 0;

export function newDeviceId(): string {
  if (taken + DEVICE_ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const id = pool.toString('base64url', taken, taken + DEVICE_ID_BYTES);
  // Wiped once used, so no id is left in memory for a later read of the pool to find.
  pool.fill(0, taken, taken + DEVICE_ID_BYTES);
  taken += DEVICE_ID_BYTES;
  return id;
}

/**
 * The request's owner; sets a device cookie on the first visit that needs one. `addressKey`
 * gives a visitor's address key (asked only when no one is logged in).
 */
export function ownerOf(c: Context<AppEnv>, secure: boolean, addressKey?: (c: Context<AppEnv>) => string): Owner {
  let deviceId = getCookie(c, DEVICE_COOKIE);
  if (!deviceId || !/^[A-Za-z0-9_-]{22,64}$/.test(deviceId)) {
    deviceId = newDeviceId();
    setCookie(c, DEVICE_COOKIE, deviceId, { httpOnly: true, sameSite: 'Lax', secure, path: '/', maxAge: 365 * 86_400 });
  }
  const user = c.get('user');
  if (!user && addressKey) return { user, deviceId, root: false, address: addressKey(c) };
  return { user, deviceId, root: !!user && rankOf(user.role) >= ROLE_RANKS.root_user };
}
