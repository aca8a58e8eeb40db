// Killing the server mid-stream loses no completed log: the turn that finished is on disk
// with its usage row, the one cut off left nothing half-written, and the server starts again.
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

describe('a crash mid-stream', () => {
  let fake: FakeOpenAI;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-crash-'));
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake?.close();
  });

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
    while (!seen.includes('event: text')) seen += decoder.decode((await reader.read()).value);
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
