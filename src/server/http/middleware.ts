// The middleware every request goes through (DESIGN §4): security headers, the request log
// (paths only), body limits (1 MB, raised per path by a plugin), the origin check, the login
// token's user, and a JSON 500 for what escapes a handler.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import type { AppEnv, Authenticator, Gate, ServerEventBus } from '../../core/index.ts';
import { UPLOAD_MAX_BYTES } from '../../core/constants.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import type { Accounts } from '../accounts/service.ts';
import { authenticateBearer, loadUser } from '../auth/session.ts';
import { isConnectionLost } from '../db/connectionLost.ts';
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
  events?: ServerEventBus,
): {
  setBodyLimit(path: string, maxBytes: number, options?: { streamed?: boolean }): void;
  addGate(gate: Gate): void;
  addAuthenticator(authenticator: Authenticator): void;
  authenticate(c: Context<AppEnv>): Promise<Response | undefined>;
} {
  app.use('*', securityHeaders(config));
  app.use('/api/*', async (c, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    // The path only: query strings can carry tokens.
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms) }, 'request');
    // The pattern of the handler that answered (its index is the last one run), never the path: a small set.
    events?.emit('request', { method: c.req.method, route: matchedRoutes(c)[c.req.routeIndex]?.path ?? 'unmatched', status: c.res.status, ms });
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
  // Plugins add authenticators (API keys) for requests without a login that carry a bearer secret.
  const authenticators: Authenticator[] = [];
  app.use('/api/*', loadUser(accounts, authenticators));
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
    // A database restarting is said as such (503: try again), not as a fault of the request.
    if (isConnectionLost(err)) return fail(c, 503, SERVER_MESSAGES.databaseAway);
    return fail(c, 500, SERVER_MESSAGES.failed);
  });

  return {
    addGate: (gate) => void gates.push(gate),
    addAuthenticator: (authenticator) => void authenticators.push(authenticator),
    authenticate: (c) => {
      c.set('user', null);
      c.set('token', null);
      return authenticateBearer(c, authenticators);
    },
    setBodyLimit: (routePath, maxBytes, options) => {
      raisedLimits.set(routePath, limitFor(maxBytes, SERVER_MESSAGES.tooLarge, options?.streamed === true));
    },
  };
}
