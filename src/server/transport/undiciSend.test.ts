// What is undiciSend.ts's own (it serves system models behind a proxy; upstream.test.ts holds
// it to what rawHttp.ts does, silences and kept connections included): a stop closes the
// provider's connection at once (rawHttp.test.ts has rawHttp.ts's).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, event, servers } from './testServers.ts';
import { undiciSend } from './undiciSend.ts';

afterEach(closeServers);

describe('a request stopped (undiciSend.ts)', () => {
  it('closes the provider’s connection within 100 ms of the abort', async () => {
    let closedAt = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('first'));
      req.socket.on('close', () => (closedAt = performance.now()));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const stop = new AbortController();
    const upstream = await undiciSend({ idleMs: 60_000 })(`http://127.0.0.1:${(server.address() as AddressInfo).port}/chat/completions`, {}, '{}', stop.signal);
    const pumped = upstream.pump(() => undefined).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 50));
    const stopped = performance.now();
    stop.abort();
    expect(await pumped).toMatchObject({ name: 'AbortError' });
    while (!closedAt && performance.now() - stopped < 1_000) await new Promise((r) => setTimeout(r, 5));
    expect(closedAt - stopped).toBeLessThan(100);
    expect(closedAt).toBeGreaterThan(0);
  });
});
