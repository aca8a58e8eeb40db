// The helper's HTTP face, on 127.0.0.1 only (spec part 7, "Local helpers"), on Hono:
//   GET /            'Simple MCP is running.' (text/plain; the browser's 300 ms health check)
//   GET /tool/list   [{name, description, parameters}]
//   POST /tool/call  {tool, args} -> {success: true, result} | {success: false, error}
// Unlike the public app's helper (cors() for every origin), a page may call it only from an
// allowed app origin, and only through a Host naming the loopback address (no DNS rebinding).
import { createAdaptorServer } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MCP_HEALTH_TEXT } from '../core/mcp.ts';
import { ToolCallError, type McpHub } from './servers.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface HttpOptions {
  hub: McpHub;
  allowedOrigins: string[];
  callTimeoutMs: number;
}

export interface RunningHelper {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

type Status = 400 | 403 | 404 | 405 | 413 | 500 | 502 | 504;
const refuse = (c: Context, status: Status, error: string) => c.json({ success: false, error }, status);

/** The helper's routes; `port()` is the port actually listened on (for the Host check). */
export function createHelperApp(options: HttpOptions, port: () => number): Hono {
  const allowed = new Set(options.allowedOrigins);
  const app = new Hono();

  app.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  });
  // DNS rebinding: a page on evil.example resolved to 127.0.0.1 still sends its own Host.
  // Requests without Origin (curl, the CLI) are fine; a present Origin must be an app origin;
  // `Origin: null` (sandboxed frames, file pages) is refused like any other.
  app.use(async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port()}` && host !== `localhost:${port()}`) return refuse(c, 403, 'Host not allowed');
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowed.has(origin)) return refuse(c, 403, 'Origin not allowed');
    await next();
    c.header('Vary', 'Origin');
  });
  // Private Network Access / Local Network Access preflight from an allowed app page.
  app.options('*', async (c, next) => {
    await next();
    if (c.req.header('origin') !== undefined) c.header('Access-Control-Allow-Private-Network', 'true');
  });
  app.use(cors({ origin: (origin) => origin, allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type'], maxAge: 600 }));

  app.get('/', (c) => c.text(MCP_HEALTH_TEXT));
  app.get('/tool/list', (c) => c.json(options.hub.tools()));
  // Refused before it is read: the connection closes, so the rest of it is never taken in.
  const tooLarge = (c: Context) => {
    c.header('Connection', 'close');
    return refuse(c, 413, 'Request body too large');
  };
  app.post('/tool/call', bodyLimit({ maxSize: BODY_LIMIT_BYTES, onError: tooLarge }), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return refuse(c, 400, 'Body must be JSON: {"tool": "...", "args": {...}}');
    }
    const tool = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).tool : undefined;
    if (typeof tool !== 'string' || tool === '') return refuse(c, 400, 'Missing "tool"');
    let args = (body as Record<string, unknown>).args ?? {};
    // Some callers send the arguments as JSON text.
    if (typeof args === 'string') {
      try {
        args = args.trim() === '' ? {} : JSON.parse(args);
      } catch {
        return refuse(c, 400, '"args" must be an object or JSON text of one');
      }
    }
    try {
      // If the page goes away, the request's signal stops the wait for the tool.
      return c.json({ success: true, result: await options.hub.call(tool, args, options.callTimeoutMs, c.req.raw.signal) });
    } catch (error) {
      if (error instanceof ToolCallError) return refuse(c, error.status as Status, error.message);
      throw error;
    }
  });
  app.on(['PUT', 'PATCH', 'DELETE', 'POST', 'GET'], ['/', '/tool/list', '/tool/call'], (c) => refuse(c, 405, 'Method not allowed'));
  app.notFound((c) => refuse(c, 404, 'Not found'));
  app.onError((_error, c) => refuse(c, 500, 'Internal error'));
  return app;
}

/** Listens on 127.0.0.1 only; port 0 picks a free port (tests). */
export async function startHttp(options: HttpOptions, port: number): Promise<RunningHelper> {
  let actualPort = port;
  const app = createHelperApp(options, () => actualPort);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  server.requestTimeout = options.callTimeoutMs + 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
