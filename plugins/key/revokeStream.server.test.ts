// A revoked key ends its running streams at once, on every instance, on every engine: slow
// fake-provider streams with a key, `:key rm` from the owner's session, and each stream of that key
// ends within a couple of seconds with the 401's wording as an OpenAI error event, its provider
// request closed, while another key's concurrent stream runs to its end. On PostgreSQL and MariaDB
// a second server on the same database ends its stream too. A call answered whole gets the 401,
// as does a stream cut before its first token. A deleted user's key the same.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { engines, freshDatabase, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { addKey, ask, signedUp, v1 } from './keySupport.ts';

/** 40 chunks 100 ms apart: a 4-second stream, long enough to be cut well before its end. */
const CHUNKS = 40;
const SLOW = { chunks: Array<string>(CHUNKS).fill('word '), delayMs: 100 };
/** The re-check runs every second; the rest is a loaded CI machine's slack. */
const ENDS_WITHIN_MS = 3000;

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => fake?.close());
beforeEach(() => {
  fake.reset();
  fake.always(SLOW);
});

/** A /v1 stream read in the background: its text so far and when it ended. */
async function stream(server: TestServer, key: string) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(ask('a long answer', { stream: true })),
  });
  expect(res.status).toBe(200);
  const state = { text: '', endedAt: 0, done: Promise.resolve() };
  state.done = (async () => {
    const decoder = new TextDecoder();
    for await (const part of res.body!) state.text += decoder.decode(part, { stream: true });
    state.endedAt = performance.now();
  })();
  return state;
}

async function until(what: () => boolean, ms = 5000) {
  const start = performance.now();
  while (!what() && performance.now() - start < ms) await new Promise((r) => setTimeout(r, 10));
  return what();
}

/** The streamed content: the deltas of the chunks (one per network read, so not one per word). */
const contentOf = (text: string) =>
  text
    .split('\n\n')
    .filter((e) => e.startsWith('data: {'))
    .map((e) => JSON.parse(e.slice(6)).choices?.[0]?.delta?.content ?? '')
    .join('');
const answering = (s: { text: string }) => s.text.includes('"content":"word ');
const errorEvent = (message: string) => `data: ${JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } })}\n\ndata: [DONE]\n\n`;

for (const engine of await engines()) {
  describe(`a revoked key's streams on ${engine}`, () => {
    let a: TestServer;
    // A second instance on the same database (not on SQLite, whose file is one instance's).
    let b: TestServer | undefined;
    let drop = async () => {};
    beforeAll(async () => {
      const env = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key' };
      if (engine === 'sqlite') {
        a = await startTestServer(engine, env);
        return;
      }
      const database = await freshDatabase(engine);
      drop = database.drop;
      a = await startTestServer(engine, { ...env, DATABASE_URL: database.url });
      b = await startTestServer(engine, { ...env, DATABASE_URL: database.url });
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await drop();
    });

    it("ends every stream of the key within seconds, closes their provider requests, and leaves another key's stream alone", async () => {
      const t = await signedUp(a, `rv${engine}`);
      const doomed = await addKey(t, ':key add "doomed"');
      const kept = await addKey(t, ':key add "kept"');
      const other = b ?? a;
      const [here, there, untouched] = await Promise.all([stream(a, doomed), stream(other, doomed), stream(other, kept)]);
      // A call answered whole, running meanwhile: its answer is the 401 instead.
      const whole = v1(other, '/chat/completions', doomed, ask('a long answer'));
      expect(await until(() => [here, there, untouched].every(answering) && fake.openStreams() === 4)).toBe(true);

      expect((await t.run(':key rm "doomed"')).text).toBe('Key "doomed" revoked.');
      const revokedAt = performance.now();
      await Promise.all([here.done, there.done]);
      // The wording of the 401 a new call with the key gets now, as the streams' last event.
      const refused = await v1(a, '/chat/completions', doomed, ask('again'));
      expect(refused.status).toBe(401);
      expect(refused.json.error.message).toBe('This API key was revoked.');
      for (const s of [here, there]) {
        expect(s.endedAt - revokedAt).toBeLessThan(ENDS_WITHIN_MS);
        expect(s.text.endsWith(errorEvent(refused.json.error.message))).toBe(true);
        expect(s.text).not.toContain('"finish_reason":"stop"');
      }
      expect(await whole).toMatchObject({ status: 401, json: { error: { message: refused.json.error.message, code: 'invalid_api_key' } } });
      // The three provider requests of the revoked key are closed; the kept key's one is not.
      expect(await until(() => fake.aborted() === 3, 2000)).toBe(true);
      expect(untouched.endedAt).toBe(0);

      await untouched.done;
      expect(contentOf(untouched.text)).toBe('word '.repeat(CHUNKS));
      expect(untouched.text).toContain('"finish_reason":"stop"');
      expect(untouched.text).not.toContain('"error"');
      expect(fake.aborted()).toBe(3);
      expect(fake.openStreams()).toBe(0);
    }, 30_000);

    // The status path is the same code on every engine: defined on SQLite alone.
    if (engine === 'sqlite')
      it('answers 401 when the key is revoked before the first token', async () => {
        fake.reset();
        fake.always({ ...SLOW, firstDelayMs: 4000 });
        const t = await signedUp(a, 'rvearly');
        const key = await addKey(t, ':key add "early"');
        const call = v1(a, '/chat/completions', key, ask('slow to start', { stream: true }));
        expect(await until(() => fake.openStreams() === 1)).toBe(true);
        expect((await t.run(':key rm "early"')).text).toBe('Key "early" revoked.');
        expect(await call).toMatchObject({ status: 401, json: { error: { message: 'This API key was revoked.', type: 'invalid_request_error', code: 'invalid_api_key' } } });
        expect(await until(() => fake.aborted() === 1, 2000)).toBe(true);
      }, 30_000);

    it("ends a deleted user's stream the same way", async () => {
      const t = await signedUp(a, `rvgone${engine}`);
      const key = await addKey(t, ':key add "orphan"');
      const s = await stream(b ?? a, key);
      expect(await until(() => answering(s))).toBe(true);
      await a.server.accounts.delete((await a.server.accounts.byUsername(t.username))!);
      const deletedAt = performance.now();
      await s.done;
      const refused = await v1(a, '/models', key);
      expect(refused.status).toBe(401);
      expect(s.endedAt - deletedAt).toBeLessThan(ENDS_WITHIN_MS);
      expect(s.text.endsWith(errorEvent(refused.json.error.message))).toBe(true);
      expect(await until(() => fake.aborted() === 1, 2000)).toBe(true);
    }, 30_000);
  });
}
