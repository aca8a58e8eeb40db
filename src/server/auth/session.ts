// The login cookie and the middleware that turns it into `c.var.user`.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv, Authenticator } from '../../core/index.ts';
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

/** The secret of an `Authorization: Bearer <secret>` header, if the request has one. */
export function bearerOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * A request's user from the plugins' authenticators (API keys): only for a request that has no
 * login and carries a bearer secret. A secret that no authenticator knows is refused (401), so a
 * script with a mistyped key is told so rather than treated as a visitor.
 */
export async function authenticateBearer(c: Context<AppEnv>, authenticators: readonly Authenticator[]): Promise<Response | undefined> {
  const secret = bearerOf(c);
  if (secret === undefined || !authenticators.length) return undefined;
  for (const authenticate of authenticators) {
    const found = await authenticate(secret, c);
    if (found instanceof Response) return found;
    if (found) {
      c.set('user', found.user);
      c.set('token', null);
      c.set('credential', found.credential);
      return undefined;
    }
  }
  return fail(c, 401, SERVER_MESSAGES.pleaseLogin);
}

export function loadUser(accounts: Accounts, authenticators: readonly Authenticator[] = []): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, COOKIE) ?? null;
    const user = token ? await accounts.userForToken(token) : undefined;
    c.set('user', user ?? null);
    c.set('token', user ? token : null);
    if (!user) {
      const refused = await authenticateBearer(c, authenticators);
      if (refused) return refused;
    }
    await next();
  };
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) return fail(c, 401, SERVER_MESSAGES.pleaseLogin);
  await next();
};
