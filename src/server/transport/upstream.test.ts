// The system models' clients of the direct relay against a real local server: rawHttp.ts, and
// undiciSend.ts (what serves them behind a proxy) held to the same: chunks of one network
// read arrive together, a hold stops the reading, a cut connection and a refused one become
// clear errors. Then what is rawHttp.ts's own (silences, a kept connection closed).
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IdleWatch } from './idleWatch.ts';
import { rawHttpSend } from './rawHttp.ts';
import { closeServers, dropping, event, finish, raw, serve, servers, turn } from './testServers.ts';
import { undiciSend } from './undiciSend.ts';
import { useProxyForSystemModels, viaFetch, viaSystem, type Send } from './upstream.ts';

afterEach(closeServers);

for (const [client, proxied] of [['rawHttp.ts', false], ['undiciSend.ts, as behind a proxy', true]] as const) {
describe(`system model upstream (${client})`, () => {
  beforeAll(() => useProxyForSystemModels(proxied));
  afterAll(() => useProxyForSystemModels(false));

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
}

/** Each client with a 100 ms silence limit, and whether it let go of all it watched. */
const silenceClients: [string, () => { send: Send; released: () => boolean }][] = [
  ['rawHttp.ts', () => {
    const idle = new IdleWatch(100);
    return { send: rawHttpSend(idle), released: () => idle.size === 0 };
  }],
  ['undiciSend.ts', () => ({ send: undiciSend({ idleMs: 100 }), released: () => true })],
];

for (const [client, make] of silenceClients) {
  describe(`a provider that goes silent (${client})`, () => {
    const signal = () => new AbortController().signal;

    it('is given up when no answer comes at all', async () => {
      const { send, released } = make();
      const url = await raw(() => {});
      const started = performance.now();
      await expect(send(`${url}/chat/completions`, {}, '{}', signal())).rejects.toThrow('The model provider sent nothing for 0.1 s.');
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(95);
      expect(waited).toBeLessThan(1500);
      expect(released()).toBe(true);
    });

    it('is given up when the answer stops in the middle', async () => {
      const { send, released } = make();
      const url = await raw((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(event('a'));
      });
      const upstream = await send(`${url}/chat/completions`, {}, '{}', signal());
      const seen: string[] = [];
      await expect(upstream.pump((chunk) => void seen.push(Buffer.from(chunk).toString()))).rejects.toThrow('The model provider sent nothing for 0.1 s.');
      expect(seen.join('')).toContain('"a"');
      expect(released()).toBe(true);
    });

    it('is not given up while bytes keep coming, however long the answer takes', async () => {
      const { send, released } = make();
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
      const upstream = await send(`${url}/chat/completions`, {}, '{}', signal());
      let text = '';
      await upstream.pump((chunk) => void (text += Buffer.from(chunk).toString()));
      // 400 ms in all, four times the limit, and every piece arrived.
      expect(text).toContain('t9 ');
      expect(text).toContain('[DONE]');
      expect(released()).toBe(true);
    });
  });
}

/**
 * Each client, with how it fails a request the provider keeps dropping: rawHttp.ts knows a
 * reused connection from a new one and sends once; undici cannot tell, and sends twice.
 */
const keptClients = [
  { client: 'rawHttp.ts', send: rawHttpSend(new IdleWatch(60_000)), error: 'socket hang up', freshTries: 1 },
  { client: 'undiciSend.ts', send: undiciSend({ idleMs: 60_000 }), error: 'other side closed', freshTries: 2 },
];

for (const { client, send, error, freshTries } of keptClients) {
  describe(`a kept-alive connection the provider closed (${client})`, () => {
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

    it('is sent once more at the most', async () => {
      const fresh = await dropping(() => true);
      await expect(send(fresh.url, {}, '{}', new AbortController().signal)).rejects.toThrow(error);
      expect(fresh.seen.requests).toBe(freshTries);
      const stale = await dropping((n) => n > 1);
      await (await send(stale.url, {}, '{}', new AbortController().signal)).text();
      await freed();
      await expect(send(stale.url, {}, '{}', new AbortController().signal)).rejects.toThrow(error);
      // Three requests: the first; the second, on the reused connection; and its one retry, on
      // a new connection, which the server drops too.
      expect(stale.seen).toEqual({ requests: 3, connections: 2 });
    });
  });
}

describe('a kept-alive connection the provider closed (fetch)', () => {
  const freed = () => new Promise((r) => setTimeout(r, 10));

  it('through fetch (user models), is sent once more when the connection closed under it, and no more', async () => {
    const send = viaFetch(fetch);
    const { url, seen } = await dropping((n) => n === 2);
    expect(await (await send(url, {}, '{}', new AbortController().signal)).text()).toBe('{"n":1}');
    await freed();
    expect(await (await send(url, {}, '{}', new AbortController().signal)).text()).toBe('{"n":3}');
    expect(seen).toEqual({ requests: 3, connections: 2 });
    // fetch does not tell a reused connection from a new one: a request the provider keeps
    // dropping goes out twice, then fails.
    const dead = await dropping(() => true);
    await expect(send(dead.url, {}, '{}', new AbortController().signal)).rejects.toThrow('fetch failed');
    expect(dead.seen.requests).toBe(2);
  });
});
