// The system models' client when the operator set a proxy (undiciSend.ts, undici's dispatcher),
// against a real local server, held to what upstream.test.ts holds the direct client to:
// chunks of one network read arrive together, a hold stops the reading, a cut connection and
// a refused one become clear errors, silences are given up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../models/systemModels.ts';
import { directChatStream, type RelayPart } from './directStream.ts';
import { undiciSend } from './undiciSend.ts';
import { useProxyForSystemModels, viaFetch, viaSystem } from './upstream.ts';

const servers: http.Server[] = [];
// viaSystem as it is behind a proxy: through undiciSend.ts (here without one in between).
beforeAll(() => useProxyForSystemModels(true));
afterAll(() => useProxyForSystemModels(false));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server whose handler gets the raw response (chunked encoding: one chunk per write). */
async function serve(handler: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      handler(res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const event = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

const entry = (baseUrl: string): ModelEntry => ({
  name: 'sys',
  scope: 'system',
  provider: 'openai-compatible',
  model: 'm',
  baseUrl,
  apiKey: '',
  priceInput: 0,
  priceOutput: 0,
  capabilities: { vision: false, tools: false, image: false, reasoning: false, context_window: null },
});

async function turn(baseUrl: string): Promise<RelayPart[]> {
  const parts: RelayPart[] = [];
  await directChatStream(
    { entry: entry(baseUrl), messages: [{ role: 'user', content: 'hi' }], tools: {}, temperature: 1, topP: 1, maxSteps: 1, signal: new AbortController().signal },
    (part) => void parts.push(part),
  );
  return parts;
}

describe('system model upstream (undiciSend.ts)', () => {
  it('hands over what one network read brought as one chunk, however many chunks it held', async () => {
    const url = await serve((res) => {
      // 200 chunks of the chunked encoding, corked into one write.
      res.cork();
      for (let i = 0; i < 200; i++) res.write(event(`t${i} `));
      res.write(finish);
      res.uncork();
      res.end();
    });
    const parts = await turn(url);
    const texts = parts.filter((p) => p.type === 'text-delta');
    expect(texts.map((p) => p.text).join('')).toBe(Array.from({ length: 200 }, (_, i) => `t${i} `).join(''));
    // One part per read, not one per chunk: far fewer than 200.
    expect(texts.length).toBeLessThan(20);
    expect(parts.at(-1)!.type).toBe('finish');
  });

  it('reads nothing while held, and goes on once released', async () => {
    const url = await serve((res) => {
      res.write(event('a'));
      setTimeout(() => {
        res.write(event('b'));
        res.end(finish);
      }, 50);
    });
    const upstream = await viaSystem(`${url}/chat/completions`, {}, '{}', new AbortController().signal);
    const seen: string[] = [];
    let release!: () => void;
    const pumped = upstream.pump((chunk) => {
      seen.push(Buffer.from(chunk).toString());
      if (seen.length === 1) upstream.hold(new Promise<void>((r) => (release = r)));
    });
    await new Promise((r) => setTimeout(r, 300));
    // The rest has arrived long ago, but the hold keeps it back.
    expect(seen).toHaveLength(1);
    release();
    await pumped;
    expect(seen.join('')).toContain('"b"');
    expect(seen.join('')).toContain('[DONE]');
  });

  it('reports a connection cut in the middle of the answer', async () => {
    const url = await serve((res) => {
      res.write(event('half'));
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const parts = await turn(url);
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.text).join('')).toBe('half');
    expect((parts.at(-1) as { error: Error }).error.message).toBe('The model provider ended the stream early.');
  });

  it('names the cause when the provider cannot be reached', async () => {
    const url = await serve(() => {});
    const closed = servers.pop()!;
    await new Promise((r) => closed.close(r));
    const parts = await turn(url);
    expect((parts.at(-1) as { error: Error }).error.message).toMatch(/^Cannot connect to API: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });
});

describe('a provider that goes silent', () => {
  /** A server that answers with `handler` (headers and all up to it). */
  async function raw(handler: (res: http.ServerResponse) => void): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => handler(res));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const signal = () => new AbortController().signal;

  it('is given up when no answer comes at all', async () => {
    const url = await raw(() => {});
    const started = performance.now();
    await expect(undiciSend({ idleMs: 100 })(`${url}/chat/completions`, {}, '{}', signal())).rejects.toThrow('The model provider sent nothing for 0.1 s.');
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(95);
    expect(waited).toBeLessThan(1500);
  });

  it('is given up when the answer stops in the middle', async () => {
    const url = await raw((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('a'));
    });
    const upstream = await undiciSend({ idleMs: 100 })(`${url}/chat/completions`, {}, '{}', signal());
    const seen: string[] = [];
    await expect(upstream.pump((chunk) => void seen.push(Buffer.from(chunk).toString()))).rejects.toThrow('The model provider sent nothing for 0.1 s.');
    expect(seen.join('')).toContain('"a"');
  });

  it('is not given up while bytes keep coming, however long the answer takes', async () => {
    const url = await raw((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(event(`t${n} `));
        if (++n === 10) {
          clearInterval(timer);
          res.end(finish);
        }
      }, 40);
    });
    const upstream = await undiciSend({ idleMs: 100 })(`${url}/chat/completions`, {}, '{}', signal());
    let text = '';
    await upstream.pump((chunk) => void (text += Buffer.from(chunk).toString()));
    // 400 ms in all, four times the limit, and every piece arrived.
    expect(text).toContain('t9 ');
    expect(text).toContain('[DONE]');
  });
});

/** A server that drops the connection, unanswered, of the requests `drop` picks (by number from 1). */
async function dropping(drop: (n: number) => boolean) {
  const seen = { requests: 0, connections: 0 };
  const server = http.createServer((req, res) => {
    const n = ++seen.requests;
    req.resume();
    req.on('end', () => {
      if (drop(n)) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"n":${n}}`);
    });
  });
  server.on('connection', () => seen.connections++);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat/completions`, seen };
}

describe('a kept-alive connection the provider closed', () => {
  const send = undiciSend({ idleMs: 60_000 });
  /** Until the connection of the answer just read is back among the free ones. */
  const freed = () => new Promise((r) => setTimeout(r, 10));

  it('sends the request once more, on a new connection, when the one it reused had been closed', async () => {
    const { url, seen } = await dropping((n) => n === 2);
    expect(await (await send(url, {}, '{}', new AbortController().signal)).text()).toBe('{"n":1}');
    await freed();
    // The second request goes out on the first one's kept-alive connection, which the server
    // drops as if it had closed it while idle.
    const second = await send(url, {}, '{}', new AbortController().signal);
    expect(await second.text()).toBe('{"n":3}');
    expect(seen).toEqual({ requests: 3, connections: 2 });
  });

  it('is sent once more, and no more, when the connection keeps closing under it', async () => {
    // undici does not tell a reused connection from a new one: a request the provider keeps
    // dropping goes out twice, then fails.
    const fresh = await dropping(() => true);
    await expect(send(fresh.url, {}, '{}', new AbortController().signal)).rejects.toThrow('other side closed');
    expect(fresh.seen.requests).toBe(2);
    const stale = await dropping((n) => n > 1);
    await (await send(stale.url, {}, '{}', new AbortController().signal)).text();
    await freed();
    await expect(send(stale.url, {}, '{}', new AbortController().signal)).rejects.toThrow('other side closed');
    expect(stale.seen).toEqual({ requests: 3, connections: 2 });
  });
});

describe('a request stopped (undiciSend.ts)', () => {
  it('closes the provider’s connection within 100 ms of the abort', async () => {
    let closedAt = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('first'));
      req.socket.on('close', () => (closedAt = performance.now()));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
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
