// CSRF defence: a state-changing request that a browser sends from another origin is refused.
// Browsers always send Origin (and Sec-Fetch-Site) with such requests; clients without a
// browser (the CLI, scripts) send neither and carry no ambient cookie risk.
import type { MiddlewareHandler } from 'hono';
import { fail } from './respond.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const own = new URL(c.req.url).origin;
    const host = c.req.header('host');
    // `Origin: null` (sandboxed frames, file: pages) and other non-URLs match no host.
    const sameHost = origin && host && URL.parse(origin)?.host === host;
    if (origin && origin !== own && !sameHost && !allowedOrigins.includes(origin)) {
      return fail(c, 403, 'Cross-origin request refused.');
    }
    if (!origin && site === 'cross-site') return fail(c, 403, 'Cross-origin request refused.');
    await next();
  };
}
