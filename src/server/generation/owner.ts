// Who owns what a request creates: the logged-in user, or an anonymous browser through a
// random device cookie (so anonymous visitors own their sessions too).
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { rankOf, ROLE_RANKS, type AppEnv, type UserRow } from '../../core/index.ts';

export const DEVICE_COOKIE = 'device';

export interface Owner {
  user: UserRow | null;
  deviceId: string;
  root: boolean;
}

/** The request's owner; sets a device cookie on the first visit that needs one. */
export function ownerOf(c: Context<AppEnv>, secure: boolean): Owner {
  let deviceId = getCookie(c, DEVICE_COOKIE);
  if (!deviceId || !/^[A-Za-z0-9_-]{22,64}$/.test(deviceId)) {
    deviceId = randomBytes(18).toString('base64url');
    setCookie(c, DEVICE_COOKIE, deviceId, { httpOnly: true, sameSite: 'Lax', secure, path: '/', maxAge: 365 * 86_400 });
  }
  const user = c.get('user');
  return { user, deviceId, root: !!user && rankOf(user.role) >= ROLE_RANKS.root_user };
}
