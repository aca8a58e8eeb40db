// CSRF defence: nothing that spends or writes runs from a request another site's page made a
// browser send, whatever its method. Every method but GET/HEAD/OPTIONS is checked here; a GET
// that spends or writes (a question, a presigned URL, an invitation) puts `sameSiteOnly` in
// front of its route, since a top-level navigation to it carries the SameSite=Lax cookies.
import type { Context, MiddlewareHandler } from 'hono';
import { fail } from './respond.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `origin` (an Origin header, or a Referer's) is this server's, or one the operator allowed. */
function ours(c: Context, origin: string, allowedOrigins: readonly string[]): boolean {
  // `null` (sandboxed frames, file: pages) and other non-URLs match no host. The request's own
  // URL is built only when the cheaper tests leave it to decide.
  const host = c.req.header('host');
  const url = URL.parse(origin);
  if (host && url?.host === host) return true;
  if (!url) return false;
  return allowedOrigins.includes(origin) || allowedOrigins.includes(url.origin) || url.origin === new URL(c.req.url).origin;
}

/**
 * Whether a browser sent this request for a page of another site (or for no page of ours).
 * Origin decides when there is one (a same-site subdomain too, unless ALLOWED_ORIGINS names it);
 * else Sec-Fetch-Site, where only `same-origin` is ours: `none` is a typed address, a bookmark
 * or a link opened from a mail program, which must not ask a question either. Browsers too old
 * for Sec-Fetch-Site (Safari before 16.4) are judged by their Referer; with neither, a GET
 * that asks for HTML or an image is an old browser's navigation or <img> whose page withheld
 * its Referer. What is left (the CLI, curl, scripts) sends none of these and holds no cookie of
 * a browser's.
 */
export function crossSite(c: Context, allowedOrigins: readonly string[]): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined) return !ours(c, origin, allowedOrigins);
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin';
  const referer = c.req.header('referer');
  if (referer) return !ours(c, referer, allowedOrigins);
  if (!SAFE.has(c.req.method)) return false;
  const accept = c.req.header('accept') ?? '';
  return accept.includes('text/html') || accept.includes('image/');
}

/** Refuses every request but GET/HEAD/OPTIONS that another site's page sent. */
export function originCheck(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method) || !crossSite(c, allowedOrigins)) return next();
    return fail(c, 403, SERVER_MESSAGES.crossOrigin);
  };
}

/** For a GET that spends or writes: refuses it when another site's page sent it. */
export function sameSiteOnly(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => (crossSite(c, allowedOrigins) ? fail(c, 403, SERVER_MESSAGES.crossOrigin) : next());
}
