// The terminal client with an API key instead of a login, run as a script would (a child process
// against the real server and the fake provider): SHELLCHAT_API_KEY or --key, one-shot, piped
// and --json; the key's calls tagged in the ledger; what a key may not do refused; a revoked key
// stops the run before anything is sent; the profile's login is never written.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { ledgerOf } from './keySupport.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/cli/main.ts');

let fake: FakeOpenAI;
let server: TestServer;
let key: string;
let cookie: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  server = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
  const { user } = await server.server.accounts.create({ username: 'scripter', email: 'scripter@example.org', password: 'pw-scripter-secret' });
  cookie = `auth=${(await server.server.accounts.createLoginToken(user.id, 3_600_000)).token}`;
  key = await newKey('ci');
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), fake?.close()]);
});

async function newKey(name: string): Promise<string> {
  const res = await fetch(`${server.url}/api/key/add`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  return ((await res.json()) as { result: { key: string } }).result.key;
}

const profile = () => mkdtempSync(path.join(tmpdir(), 'shellchat-key-cli-'));
/** The CLI as a child process (asynchronously: the server under test is in this process). */
function cli(dir: string, args: string[], input = '', env: Record<string, string> = {}): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', server.url, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '', SHELLCHAT_API_KEY: '', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end(input);
  });
}

describe('shellchat with an API key', () => {
  it('answers a one-shot question with SHELLCHAT_API_KEY, tagged with the key in the ledger', async () => {
    const dir = profile();
    const before = (await ledgerOf(server, key)).length;
    fake.reply({ text: 'Hello, script.', usage: { prompt_tokens: 4, completion_tokens: 3 } });
    expect(await cli(dir, ['hello?'], '', { SHELLCHAT_API_KEY: key })).toEqual({ status: 0, out: 'Hello, script.\n', err: '' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test');
    const rows = (await ledgerOf(server, key)).slice(before);
    expect(rows.map((r) => Number(r.input_tokens) + Number(r.output_tokens))).toEqual([7]);
    // The key is this run's credential: no login is kept in the profile.
    expect(existsSync(path.join(dir, 'login.json'))).toBe(false);
  }, 30_000);

  it('takes the question from a pipe, with --key', async () => {
    fake.reply({ text: 'Piped back.' });
    expect(await cli(profile(), ['--key', key], 'what is piped\n')).toEqual({ status: 0, out: 'Piped back.\n', err: '' });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('what is piped');
  }, 30_000);

  it('prints --json, and runs commands as the key’s user', async () => {
    fake.reply({ text: 'As JSON.' });
    const asked = await cli(profile(), ['--key', key, '--json', 'json please']);
    expect(asked.status).toBe(0);
    expect(JSON.parse(asked.out)).toMatchObject({ text: 'As JSON.', model: 'gpt-demo' });
    const listed = await cli(profile(), ['--key', key, ':key ls']);
    expect(listed.status).toBe(0);
    expect(listed.out).toContain('ci');
    expect(listed.out).not.toContain(key);
  }, 30_000);

  it('is refused what a key may not do', async () => {
    const made = await cli(profile(), ['--key', key, ':key add "another"']);
    expect(made.status).toBe(1);
    expect(made.err + made.out).toContain('This cannot be done with an API key: log in with your password.');
  }, 30_000);

  it('stops before anything is sent when the key is revoked or unknown', async () => {
    const doomed = await newKey('doomed');
    await fetch(`${server.url}/api/key/delete`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'doomed' }) });
    const asked = fake.requests.length;
    expect(await cli(profile(), ['--key', doomed, 'hello?'])).toEqual({ status: 1, out: '', err: 'This API key was revoked.\n' });
    expect(await cli(profile(), ['hello?'], '', { SHELLCHAT_API_KEY: `sk-sc-${'C'.repeat(43)}` })).toEqual({ status: 1, out: '', err: 'Invalid API key.\n' });
    expect(fake.requests.length).toBe(asked);
  }, 30_000);
});
