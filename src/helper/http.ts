// The helper's HTTP face, on 127.0.0.1 only (spec part 7, "Local helpers"):
//   GET /            'Simple MCP is running.' (text/plain; the browser's 300 ms health check)
//   GET /tool/list   [{name, description, parameters}]
//   POST /tool/call  {tool, args} -> {success: true, result} | {success: false, error}
// Unlike the public app's helper (cors() for every origin), a page may call it only from an
// allowed app origin, and only through a Host naming the loopback address (no DNS rebinding).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > BODY_LIMIT_BYTES) {
      reject(new HttpError(413, 'Request body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        reject(new HttpError(413, 'Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The request handler; `port()` is the port actually listened on (for the Host check). */
export function createHandler(options: HttpOptions, port: () => number) {
  const allowed = new Set(options.allowedOrigins);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    const host = (req.headers.host ?? '').toLowerCase();
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1 still sends its own Host.
    if (host !== `127.0.0.1:${port()}` && host !== `localhost:${port()}`) {
      send(res, 403, { success: false, error: 'Host not allowed' });
      return;
    }
    // Requests without Origin (curl, the CLI) are fine; a present Origin must be an app origin.
    // `Origin: null` (sandboxed frames, file pages) is refused like any other.
    if (origin !== undefined && !allowed.has(origin)) {
      send(res, 403, { success: false, error: 'Origin not allowed' });
      return;
    }
    res.setHeader('Vary', 'Origin');
    if (origin !== undefined) res.setHeader('Access-Control-Allow-Origin', origin);

    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'OPTIONS') {
      if (origin !== undefined) {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
        res.setHeader('Access-Control-Max-Age', '600');
        // Private Network Access / Local Network Access preflight from an allowed app page.
        res.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      res.writeHead(204).end();
      return;
    }

    try {
      if (req.method === 'GET' && path === '/') {
        send(res, 200, MCP_HEALTH_TEXT);
      } else if (req.method === 'GET' && path === '/tool/list') {
        send(res, 200, options.hub.tools());
      } else if (req.method === 'POST' && path === '/tool/call') {
        await callTool(req, res, options);
      } else if (path === '/' || path === '/tool/list' || path === '/tool/call') {
        send(res, 405, { success: false, error: 'Method not allowed' });
      } else {
        send(res, 404, { success: false, error: 'Not found' });
      }
    } catch (error) {
      if (res.headersSent) return;
      if (error instanceof HttpError) send(res, error.status, { success: false, error: error.message });
      else send(res, 500, { success: false, error: 'Internal error' });
    }
  };
}

async function callTool(req: IncomingMessage, res: ServerResponse, options: HttpOptions): Promise<void> {
  const text = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Body must be JSON: {"tool": "...", "args": {...}}');
  }
  const tool = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).tool : undefined;
  if (typeof tool !== 'string' || tool === '') throw new HttpError(400, 'Missing "tool"');
  let args = (body as Record<string, unknown>).args ?? {};
  // Some callers send the arguments as JSON text.
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      throw new HttpError(400, '"args" must be an object or JSON text of one');
    }
  }
  // If the page goes away, stop waiting for the tool.
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) abort.abort();
  });
  try {
    const result = await options.hub.call(tool, args, options.callTimeoutMs, abort.signal);
    send(res, 200, { success: true, result });
  } catch (error) {
    if (error instanceof ToolCallError) send(res, error.status, { success: false, error: error.message });
    else throw error;
  }
}

/** Listens on 127.0.0.1 only; port 0 picks a free port (tests). */
export async function startHttp(options: HttpOptions, port: number): Promise<RunningHelper> {
  let actualPort = port;
  const handler = createHandler(options, () => actualPort);
  const server = createServer((req, res) => {
    void handler(req, res);
  });
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
