// The usage limit in the terminal client (issue 33): a question past the limit is refused on
// stderr with what one can do next: a visitor is told the commands to sign up or log in, as
// :help writes them, or when to ask again; a user when to ask again.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');

let fake: FakeOpenAI;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', USAGE_LIMITS: 'user:1,-,-;anonymous:1,-,-', VISITORS_PER_ADDRESS: '1' });
  await t.server.accounts.create({ username: 'termuser', email: 'termuser@example.org', password: 'termuser-password' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Runs the CLI as a child process (asynchronously: the server under test is in this process). */
function cli(dir: string, args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', t.url, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end('');
  });
}

it('tells a visitor past the limit how to sign up or log in, or when to ask again; and a user when', async () => {
  const visitor = mkdtempSync(path.join(tmpdir(), 'shellchat-cli-'));
  fake.reply({ text: 'First answer.' });
  expect(await cli(visitor, ['first question'])).toEqual({ status: 0, out: 'First answer.\n', err: '' });
  const asked = fake.requests.length;
  expect(await cli(visitor, ['second question'])).toEqual({
    status: 1,
    out: '',
    err: 'The usage limitation has been reached. Sign up with :user add <username> <email> [<password>] or log in with :login <username> <password> [--save|-s [Nh|Nd]], or ask again in 24 hours.\n',
  });
  // Following the advice: logged in, the account has its own count.
  expect((await cli(visitor, [':login termuser termuser-password'])).status).toBe(0);
  fake.reply({ text: 'Answered in the account.' });
  expect((await cli(visitor, ['third question'])).out).toBe('Answered in the account.\n');
  expect(await cli(visitor, ['fourth question'])).toMatchObject({ status: 1, err: 'The usage limitation has been reached. You can ask again in 24 hours.\n' });
  expect(fake.requests.length).toBe(asked + 1);
}, 60_000);
