// The helper's HTTP on Hono, what its own suites (origin.test.ts, servers.test.ts) do not reach:
// a page that goes away stops the wait for its tool, and a body without a length is still bounded.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, startHttp, type RunningHelper } from './http.ts';
import type { McpHub } from './servers.ts';

let aborted = 0;
const hub = {
  tools: () => [],
  call: (_tool: string, _args: unknown, _timeout: number, signal: AbortSignal) =>
    new Promise((resolve) =>
      signal.addEventListener('abort', () => {
        aborted++;
        resolve('stopped');
      }),
    ),
} as unknown as McpHub;

let helper: RunningHelper;
beforeAll(async () => {
  helper = await startHttp({ hub, allowedOrigins: [], callTimeoutMs: 60_000 }, 0);
});
afterAll(() => helper?.close());

describe('the helper over HTTP', () => {
  it('stops waiting for a tool when the caller goes away', async () => {
    const req = request({ port: helper.port, host: '127.0.0.1', method: 'POST', path: '/tool/call', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ tool: 'slow', args: {} }));
    await new Promise((r) => setTimeout(r, 200));
    const gone = Date.now();
    req.destroy();
    while (!aborted && Date.now() - gone < 2_000) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toBe(1);
    expect(Date.now() - gone).toBeLessThan(500);
  });

  it('refuses a chunked body past the limit with 413, having read no more than it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ port: helper.port, host: '127.0.0.1', method: 'POST', path: '/tool/call', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => resolve(res.statusCode!));
      req.on('error', reject);
      const piece = 'x'.repeat(64 * 1024);
      req.write('{"tool":"echo","args":{"message":"');
      for (let sent = 0; sent <= BODY_LIMIT_BYTES; sent += piece.length) req.write(piece);
      req.end('"}}');
    });
    expect(status).toBe(413);
  });
});
