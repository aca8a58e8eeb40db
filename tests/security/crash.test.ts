// Killing the server mid-stream loses no completed log: the turn that finished is on disk
// with its usage row, the one cut off left nothing half-written, and the server starts again.
// Stopping it (SIGTERM, a deploy) lets answers finish for a grace period, then stops those still
// streaming the way a user's stop does: each keeps its answer so far, and its browser is told.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { freePort } from '../e2e/support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function startProcess(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', SHELLCHAT_DIST: '/nonexistent' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/ping`)).ok) return { child, url };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not start');
}

/** The next piece of a stream; a stream that ends first fails the test instead of spinning on it. */
async function readMore(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder, seen: string): Promise<string> {
  const { value, done } = await reader.read();
  if (done) throw new Error(`the stream ended before the answer's text:\n${seen}`);
  return decoder.decode(value, { stream: true });
}

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe('a crash mid-stream', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-crash-'));

  it('keeps every completed log and its usage', async () => {
    const env = { DATA_DIR: dataDir, MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, ROOT_PASSWORD: 'root-password-1' };
    const first = await startProcess(env);
    const post = (session: number, input: string) =>
      fetch(`${first.url}/api/generate_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, user_input: input }) });
    fake.reply({ text: 'The completed answer.' });
    expect(await (await post(1_820_000_000_001, 'finish this')).text()).toContain('event: done');

    fake.reply({ chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 30 });
    const cut = await post(1_820_000_000_002, 'this one is cut off');
    const reader = cut.body!.getReader();
    // Kill only once the answer is flowing (the first events are statuses, before the model call).
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: text')) seen += await readMore(reader, decoder, seen);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    await reader.read().catch(() => undefined);

    const db = new Database(path.join(dataDir, 'shellchat.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const logs = db.prepare('SELECT id, session, input, output FROM logs ORDER BY id').all() as { id: number; session: number; input: string; output: string }[];
      expect(logs).toEqual([{ id: expect.any(Number), session: 1_820_000_000_001, input: 'finish this', output: 'The completed answer.' }]);
      expect(db.prepare('SELECT COUNT(*) AS n FROM usage WHERE log_id = ?').get(logs[0]!.id)).toEqual({ n: 1 });
    } finally {
      db.close();
    }

    const second = await startProcess(env);
    try {
      fake.reply({ text: 'Still here.' });
      const again = await fetch(`${second.url}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: 1_820_000_000_003, user_input: 'after the crash' }),
      });
      expect((await again.json()).result.text).toBe('Still here.');
    } finally {
      second.child.kill('SIGTERM');
    }
  }, 30_000);
});

describe('a shutdown mid-stream (SIGTERM)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-term-'));

  it('lets a short answer finish, stops a long one after the grace period keeping it, and exits', async () => {
    const env = { DATA_DIR: dataDir, MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, ROOT_PASSWORD: 'root-password-1', SHUTDOWN_GRACE_MS: '600' };
    const server = await startProcess(env);
    const post = (session: number, input: string) =>
      fetch(`${server.url}/api/generate_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, user_input: input }) });
    const abortedBefore = fake.aborted();
    // Scripted replies go to requests in the order they reach the provider.
    fake.reply({ chunks: Array.from({ length: 10 }, (_, i) => `s${i} `), delayMs: 30 });
    const short = await post(1_830_000_000_001, 'a short one');
    const shortReader = short.body!.getReader();
    const decoder = new TextDecoder();
    let shortSeen = decoder.decode((await shortReader.read()).value);
    fake.reply({ chunks: Array.from({ length: 1000 }, (_, i) => `w${i} `), delayMs: 20 });
    const long = await post(1_830_000_000_002, 'a long one');
    const reader = long.body!.getReader();
    let seen = '';
    while (!seen.includes('event: text')) seen += await readMore(reader, decoder, seen);

    const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    for (;;) {
      const { value, done } = await shortReader.read();
      if (done) break;
      shortSeen += decoder.decode(value, { stream: true });
    }
    expect(shortSeen).toContain('s9 ');
    expect(shortSeen).toMatch(/event: done\ndata: \{"session":1830000000001,"time":\d+/);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(await exited).toBe(0);
    // Cut off well before its end, upstream aborted, and told where its log went and why.
    expect(seen).not.toContain('w999 ');
    expect(fake.aborted()).toBe(abortedBefore + 1);
    const done = /event: done\ndata: (\{[^\n]*\})/.exec(seen);
    expect(JSON.parse(done![1]!)).toMatchObject({ session: 1_830_000_000_002, time: expect.any(Number) });
    const stopped = /event: error\ndata: (.*)\n/.exec(seen);
    expect(JSON.parse(stopped![1]!)).toEqual({ error: 'The server is restarting: the answer so far was saved. Send again to go on.', message: { code: 'core.stoppingKept', params: {}, text: 'The server is restarting: the answer so far was saved. Send again to go on.' } });
    expect(seen.indexOf('event: done')).toBeLessThan(seen.indexOf('event: error'));

    const db = new Database(path.join(dataDir, 'shellchat.db'), { readonly: true });
    try {
      const logs = db.prepare('SELECT id, session, time, input, output FROM logs ORDER BY id').all() as { id: number; session: number; time: number; input: string; output: string }[];
      expect(logs.map((l) => [l.session, l.input])).toEqual([
        [1_830_000_000_001, 'a short one'],
        [1_830_000_000_002, 'a long one'],
      ]);
      expect(logs[0]!.output).toBe(Array.from({ length: 10 }, (_, i) => `s${i} `).join(''));
      // The long answer's log is what the browser was sent, up to the stop.
      const sent = [...seen.matchAll(/event: text\ndata: (\{[^\n]*\})/g)].map((m) => (JSON.parse(m[1]!) as { delta: string }).delta).join('');
      expect(logs[1]!.output).toBe(sent);
      expect(logs[1]!.output).toMatch(/^w0 w1 w2 /);
      expect(logs[1]!.time).toBe(JSON.parse(done![1]!).time);
      expect(db.prepare('SELECT COUNT(*) AS n FROM usage WHERE log_id = ?').get(logs[1]!.id)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  }, 30_000);
});
