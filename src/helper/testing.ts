// Test support for the helper's tests: raw HTTP requests (any Host/Origin), a streamable-HTTP
// MCP server started in-process, and paths to the real MCP servers installed from npm.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export const EVERYTHING_BIN = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
export const FILESYSTEM_BIN = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with exactly the given headers (fetch would not let a test forge Host). */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.setHeader('Content-Type', 'application/json');
    req.end(options.body);
  });
}

export async function callTool(port: number, tool: string, args: unknown, headers: Record<string, string> = {}) {
  const res = await rawRequest(port, { method: 'POST', path: '/tool/call', headers, body: JSON.stringify({ tool, args }) });
  return { status: res.status, json: JSON.parse(res.body) as { success: boolean; result?: string; error?: string } };
}

/** A stateless streamable-HTTP MCP server with tools `add`, `echo` and `hang`. */
export async function startHttpMcpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  const makeServer = (): McpServer => {
    const server = new McpServer({ name: 'test-http', version: '1.0.0' });
    server.registerTool(
      'add',
      { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
    );
    server.registerTool(
      'echo',
      { description: 'Echoes (clashes with server-everything)', inputSchema: { message: z.string() } },
      async ({ message }) => ({ content: [{ type: 'text', text: `http: ${message}` }] }),
    );
    server.registerTool('hang', { description: 'Never answers in time', inputSchema: {} }, async () => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 20_000);
        timers.add(timer);
      });
      return { content: [{ type: 'text', text: 'too late' }] };
    });
    return server;
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const server = makeServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        const text = Buffer.concat(chunks).toString('utf8');
        await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
