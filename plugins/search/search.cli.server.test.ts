// `:search` in the terminal client, run as a child process against the real server: the results
// print as a list, one a line, with the command that opens each under it; that command prints
// the log. Piped (no colour): the marks are plain text.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');
let t: TestServer;
const session = Date.now() - 3_000_000;

beforeAll(async () => {
  t = await startTestServer('sqlite');
  const { user } = await t.server.accounts.create({ username: 'termi', email: 'termi@example.org', password: 'hunter2hunter2' });
  const db = t.server.db.db;
  await db.insertInto('sessions').values({ id: session, parent_id: null, branch_time: null, user_id: user.id, device_id: null, shared: 0, created_at: session, updated_at: session }).execute();
  const log = { session, user_id: user.id, device_id: null, model: 'm', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: session };
  await db
    .insertInto('logs')
    .values([
      { ...log, time: session + 10, input: 'How do I tune a theremin?', output: 'Move your hand near the theremin pitch antenna.' },
      { ...log, time: session + 20, input: 'And a ukulele?', output: 'GCEA, from the top string.' },
    ])
    .execute();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function cli(dir: string, args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', t.url, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end('');
  });
}

describe('the terminal client', () => {
  it('prints the results as a list with the command that opens each, which prints the log', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-search-cli-'));
    expect((await cli(dir, [':login termi hunter2hunter2'])).out).toBe('Logged in as termi.\n');
    const found = await cli(dir, [':search "theremin antenna"']);
    expect(found.status).toBe(0);
    const lines = found.out.split('\n');
    expect(lines[0]).toBe('Logs matching "theremin antenna"');
    expect(lines[1]).toMatch(/^1\. How do I tune a theremin\? · \d{4}-\d\d-\d\d \d\d:\d\d · Move your hand near the theremin pitch antenna\.$/);
    expect(lines[2]).toBe(`  :search open ${session} ${session + 10}`);
    const opened = await cli(dir, [lines[2]!.trim()]);
    expect(opened.status).toBe(0);
    expect(opened.out).toContain('How do I tune a theremin?');
    expect(opened.out).toContain('Move your hand near the theremin pitch antenna.');
    const none = await cli(dir, [':search "bagpipes"']);
    expect(none.err).toContain('No log found.');
    const bad = await cli(dir, [':search open 12 x']);
    expect(bad.err).toContain('Usage: :search open <session> <time>');
  });
});
