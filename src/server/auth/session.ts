// The login cookie and the middleware that turns it into `c.var.user`.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../core/index.ts';
import type { Accounts } from '../accounts/service.ts';
import { fail } from '../http/respond.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export const COOKIE = 'auth';

/** True when the browser reached us over https (directly, or through a trusted proxy). */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function cookieHelpers(trustProxy: boolean) {
  return {
    setLoginCookie(c: Context<AppEnv>, token: string, expiresAt: number): void {
      setCookie(c, COOKIE, token, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: isHttps(c, trustProxy),
        path: '/',
        expires: new Date(expiresAt),
      });
    },
    clearLoginCookie(c: Context<AppEnv>): void {
      deleteCookie(c, COOKIE, { path: '/', secure: isHttps(c, trustProxy) });
    },
  };
}

export function loadUser(accounts: Accounts): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, COOKIE) ?? null;
    const user = token ? await accounts.userForToken(token) : undefined;
    c.set('user', user ?? null);
    c.set('token', user ? token : null);
    await next();
  };
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) return fail(c, 401, SERVER_MESSAGES.pleaseLogin);
  await next();
};
