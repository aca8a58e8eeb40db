// The middleware every request goes through (DESIGN §4): security headers, the request log
// (paths only), body limits (1 MB, raised per path by a plugin), the origin check, the login
// token's user, and a JSON 500 for what escapes a handler.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv, Gate } from '../../core/index.ts';
import { UPLOAD_MAX_BYTES } from '../../core/constants.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import type { Accounts } from '../accounts/service.ts';
import { loadUser } from '../auth/session.ts';
import type { ServerConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { securityHeaders } from '../securityHeaders.ts';
import { UPLOAD_PUT_PATH } from '../uploads/routes.ts';
import { originCheck } from './origin.ts';
import { fail } from './respond.ts';

/** Installs the middleware; what it returns raises one exact API path's body limit (an upload route). */
export function apiMiddleware(
  app: Hono<AppEnv>,
  config: ServerConfig,
  log: Logger,
  accounts: Accounts,
): { setBodyLimit(path: string, maxBytes: number, options?: { streamed?: boolean }): void; addGate(gate: Gate): void } {
  app.use('*', securityHeaders(config));
  app.use('/api/*', async (c, next) => {
    const started = performance.now();
    await next();
    // The path only: query strings can carry tokens.
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  // 1 MB for every API body, except the paths a plugin raised with ctx.setBodyLimit (uploads).
  const limitFor = (maxSize: number, message: Message = SERVER_MESSAGES.tooLarge, routeCounts = false): MiddlewareHandler<AppEnv> => {
    const tooLarge = (c: Context<AppEnv>) => {
      // The rest of the body stays unread, so the connection cannot carry another request.
      c.header('Connection', 'close');
      return fail(c, 413, message);
    };
    const streamed = bodyLimit({ maxSize, onError: tooLarge });
    // Decided from the headers when they suffice: hono's bodyLimit looks at `req.body` first,
    // which makes the Node adapter build a whole web Request for every request (~60 µs).
    // A body without a length (chunked) is still counted as it arrives.
    return (c, next) => {
      // A route that reads its body as a stream counts a chunked one itself (hono's bodyLimit would hold it whole).
      if (c.req.header('transfer-encoding') !== undefined) return routeCounts ? next() : streamed(c, next);
      const length = c.req.header('content-length');
      if (length === undefined) return next();
      return Number(length) > maxSize ? Promise.resolve(tooLarge(c)) : next();
    };
  };
  const defaultLimit = limitFor(1024 * 1024);
  const raisedLimits = new Map<string, ReturnType<typeof limitFor>>();
  // A presigned upload's PUT carries a whole file, answered over 10 MB in the spec's words.
  raisedLimits.set(UPLOAD_PUT_PATH, limitFor(UPLOAD_MAX_BYTES, SERVER_MESSAGES.uploadTooLarge));
  app.use('/api/*', (c, next) => (raisedLimits.get(c.req.path) ?? defaultLimit)(c, next));
  app.use('/api/*', originCheck(config.allowedOrigins));
  app.use('/api/*', loadUser(accounts));
  // Checks a plugin puts before every route (the plus plan's), in the order they were added.
  const gates: Gate[] = [];
  app.use('/api/*', async (c, next) => {
    for (const gate of gates) {
      const refused = await gate(c);
      if (refused) return refused;
    }
    await next();
  });
  app.onError((err, c) => {
    log.error({ err: { message: err.message, name: err.name }, path: c.req.path }, 'unhandled error');
    return fail(c, 500, SERVER_MESSAGES.failed);
  });

  return {
    addGate: (gate) => void gates.push(gate),
    setBodyLimit: (routePath, maxBytes, options) => {
      raisedLimits.set(routePath, limitFor(maxBytes, SERVER_MESSAGES.tooLarge, options?.streamed === true));
    },
  };
}
