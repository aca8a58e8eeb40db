// The SSE response, written to the socket under the Node server and into a ReadableStream when
// the app runs without one (app.request). A client that stops reading holds the provider back
// instead of filling server memory: the
// server stops reading the provider's stream while its writes to the client wait, so when the
// client finally goes away the provider's request is still open and gets cancelled. Without
// back-pressure the server would have read the provider's whole answer (48 MB in well under
// the wait below) and the provider would have finished.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from './support.ts';

describe.each(['direct', 'sdk'])('back-pressure (STREAM_RELAY=%s)', (relay) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, STREAM_RELAY: relay });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('a client that stops reading pauses the provider, and leaving cancels it', async () => {
    fake.reply({ chunks: Array.from({ length: 24_000 }, (_, i) => `${'x'.repeat(2000)}${i} `) });
    const abortedBefore = fake.aborted();
    const payload = JSON.stringify({ session: 1_830_000_000_001, user_input: 'everything', mem_length: 0 });
    const { port } = new URL(t.url);
    const socket = await new Promise<Socket>((resolve) => {
      const s = connect(Number(port), '127.0.0.1', () => {
        s.write(`POST /api/generate_sse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${t.url}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      });
      s.once('data', () => {
        s.pause();
        resolve(s);
      });
    });
    await new Promise((r) => setTimeout(r, 2500));
    // Still streaming: nothing finished, nothing saved.
    expect(fake.aborted()).toBe(abortedBefore);
    socket.destroy();
    await expect.poll(() => fake.aborted(), { timeout: 2000 }).toBe(abortedBefore + 1);
    // The answer so far is kept, as for any stop: what the server read, far from all 48 MB.
    const saved = () => t.server.db.db.selectFrom('logs').select('output').where('session', '=', 1_830_000_000_001).execute();
    await expect.poll(async () => (await saved()).length, { timeout: 2000 }).toBe(1);
    const [log] = await saved();
    expect(log!.output.startsWith(`${'x'.repeat(2000)}0 `)).toBe(true);
    expect(log!.output.length).toBeLessThan(24 * 2 ** 20);
  });

  it('without a Node response (app.request) streams the same events, and cancelling the body aborts upstream', async () => {
    fake.reply({ chunks: ['Hel', 'lo'] });
    const request = (body: object) =>
      t.server.app.request(`${t.url}/api/generate_sse`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify(body) });
    const whole = await (await request({ session: 1_830_000_000_002, user_input: 'hi', mem_length: 0 })).text();
    expect(whole).toContain('event: model\n');
    expect([...whole.matchAll(/event: text\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]!).delta).join('')).toBe('Hello');
    expect(whole).toMatch(/event: done\ndata: \{"session":1830000000002,"time":\d+\}\n\n$/);

    fake.reply({ chunks: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 });
    const abortedBefore = fake.aborted();
    const reader = (await request({ session: 1_830_000_000_003, user_input: 'long', mem_length: 0 })).body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: text')) seen += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    await expect.poll(() => fake.aborted(), { timeout: 2000 }).toBe(abortedBefore + 1);
  });
});
