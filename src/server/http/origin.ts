// CSRF defence: a state-changing request that a browser sends from another origin is refused.
// Browsers always send Origin (and Sec-Fetch-Site) with such requests; clients without a
// browser (the CLI, scripts) send neither and carry no ambient cookie risk.
import type { MiddlewareHandler } from 'hono';
import { fail } from './respond.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin) {
      // `Origin: null` (sandboxed frames, file: pages) and other non-URLs match no host. The
      // request's own URL is built only when the cheaper tests leave it to decide.
      const host = c.req.header('host');
      const sameHost = host && URL.parse(origin)?.host === host;
      if (!sameHost && !allowedOrigins.includes(origin) && origin !== new URL(c.req.url).origin) {
        return fail(c, 403, SERVER_MESSAGES.crossOrigin);
      }
    } else if (c.req.header('sec-fetch-site') === 'cross-site') {
      return fail(c, 403, SERVER_MESSAGES.crossOrigin);
    }
    await next();
  };
}
