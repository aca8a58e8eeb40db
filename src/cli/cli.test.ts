// The terminal client against the real server and the fake provider: one-shot questions and
// commands, stdin piped with a question, JSON output, exit codes, no escape codes when stdout is
// not a TTY, the login kept in a 0600 file across runs; and the interactive shell in a real
// pseudo-terminal (tmux): an answer streamed, Tab completion, history, Ctrl+C during an answer.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
// Skipped only where tmux is missing, never under CI=true (.ci/run installs it).
if (!HAS_TMUX && process.env.CI === 'true') throw new Error('tmux is required under CI=true');

let fake: FakeOpenAI;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const profile = () => mkdtempSync(path.join(tmpdir(), 'shellchat-cli-'));
/** Runs the CLI as a child process (asynchronously: the server under test is in this process). */
function cli(dir: string, args: string[], input = ''): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', t.url, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end(input);
  });
}
const ESC = '\u001b';

describe('shellchat, one-shot', () => {
  it('prints its version', async () => {
    const version = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')).version;
    expect(await cli(profile(), ['--version'])).toEqual({ status: 0, out: `shellchat ${version}\n`, err: '' });
  });

  it('answers a question, and runs a colon command, with plain text when stdout is not a TTY', async () => {
    const dir = profile();
    fake.reply({ text: 'The **answer**, streamed.' });
    const asked = await cli(dir, ['what is up?']);
    expect(asked).toEqual({ status: 0, out: 'The **answer**, streamed.\n', err: '' });
    const help = await cli(dir, [':help']);
    expect(help.status).toBe(0);
    expect(help.out).toContain(':help [<command>...]');
    expect(help.out).not.toContain(ESC);
  });

  it('sends what is piped on stdin with the question', async () => {
    fake.reply({ text: 'Looks fine.' });
    expect((await cli(profile(), ['review this'], 'diff --git a/x b/x\n+added line\n')).out).toBe('Looks fine.\n');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('+added line');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('review this');
  });

  it('prints the answer as JSON with its model and session, and exits 1 with the error on stderr', async () => {
    fake.reply({ text: 'Forty-two.' });
    const json = await cli(profile(), ['--json', 'the answer?']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ text: 'Forty-two.', model: 'gpt-demo', session: expect.any(Number) });
    const bad = await cli(profile(), [':role "nope"']);
    expect(bad).toEqual({ status: 1, out: '', err: 'Role "nope" does not exist.\n' });
    expect(await cli(profile(), ['--model', 'no-such-model', 'hi'])).toMatchObject({ status: 1, err: 'Model not found.\n' });
    // What only the web interface can do says so, in one line.
    expect(await cli(profile(), [':theme dark'])).toEqual({ status: 1, out: '', err: ':theme works in the browser only.\n' });
    expect(await cli(profile(), [':voice ls'])).toEqual({ status: 1, out: '', err: ':voice ls works in the browser only.\n' });
  });

  it('keeps the login in a file only its owner can read, and forgets it at logout', async () => {
    const dir = profile();
    expect((await cli(dir, [':user add termi termi@example.org hunter2hunter2'])).out).toBe('User termi added.\n');
    expect((await cli(dir, [':login termi hunter2hunter2'])).out).toBe('Logged in as termi.\n');
    const login = path.join(dir, 'login.json');
    expect(statSync(login).mode & 0o777).toBe(0o600);
    expect(readFileSync(login, 'utf8')).not.toContain('hunter2');
    expect((await cli(dir, [':user'])).out).toContain('termi@example.org');
    expect((await cli(dir, [':logout'])).status).toBe(0);
    expect((await cli(dir, [':user'])).err).toBe('Please login.\n');
  });
});

describe.skipIf(!HAS_TMUX)('shellchat, the interactive shell in tmux', () => {
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  // The whole scrollback: a long output (:help) scrolls past the visible rows.
  const screen = (name: string) => tmux('capture-pane', '-p', '-S', '-', '-t', name);
  async function until(name: string, test: (text: string) => boolean, ms = 10_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const text = screen(name);
      if (test(text)) return text;
      if (Date.now() > end) throw new Error(`screen never matched; its end:\n${text.trimEnd().split("\n").slice(-12).join("\n")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('streams an answer, completes with Tab, walks history, and stops an answer with Ctrl+C', async () => {
    const dir = profile();
    const name = `shellchat-${process.pid}`;
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `SHELLCHAT_CONFIG_DIR=${dir} ${process.execPath} ${MAIN} --server ${t.url}`);
    try {
      await until(name, (s) => s.includes('shellchat>'));
      fake.reply({ text: 'Hi from the REPL.' });
      tmux('send-keys', '-t', name, 'hello', 'Enter');
      await until(name, (s) => s.includes('Hi from the REPL.'));

      // Tab completes a command from the manifests.
      tmux('send-keys', '-t', name, ':hel', 'Tab');
      await until(name, (s) => s.trimEnd().endsWith('> :help'));
      tmux('send-keys', '-t', name, 'Enter');
      await until(name, (s) => s.includes(':help [<command>...]'));
      // History: Up brings the last command back.
      tmux('send-keys', '-t', name, 'C-l', 'Up');
      await until(name, (s) => s.trimEnd().endsWith('> :help'));
      tmux('send-keys', '-t', name, 'C-u');

      // Ctrl+C while an answer streams: the provider sees the request closed, the prompt is back.
      const before = fake.requests.length;
      const abortedBefore = fake.aborted();
      fake.reply({ text: 'word '.repeat(400), delayMs: 50 });
      tmux('send-keys', '-t', name, 'tell me a long story', 'Enter');
      await until(name, (s) => s.includes('word word'));
      const stopped = Date.now();
      tmux('send-keys', '-t', name, 'C-c');
      // The provider sees its request closed (the server stops it when the CLI aborts).
      while (fake.aborted() === abortedBefore && Date.now() - stopped < 2_000) await new Promise((r) => setTimeout(r, 10));
      expect(fake.aborted()).toBe(abortedBefore + 1);
      expect(Date.now() - stopped).toBeLessThan(500);
      await until(name, (s) => s.trimEnd().endsWith('shellchat>'), 5_000);
      expect(fake.requests.length).toBe(before + 1);
      expect(existsSync(path.join(dir, 'history.json'))).toBe(true);
      expect(JSON.parse(readFileSync(path.join(dir, 'history.json'), 'utf8'))[0]).toBe(':help');
      // A password is masked as it is typed, and not kept in the history.
      tmux('send-keys', '-t', name, ':user add tess tess@example.org tess-secret-1', 'Enter');
      await until(name, (s) => s.includes('User tess added.'));
      expect(screen(name)).not.toContain('tess-secret-1');
      expect(screen(name)).toContain(':user add tess tess@example.org *************');
      expect(readFileSync(path.join(dir, 'history.json'), 'utf8')).not.toContain('tess-secret-1');
      // Ctrl+C on an empty line leaves.
      tmux('send-keys', '-t', name, 'C-c');
      await new Promise((r) => setTimeout(r, 500));
      expect(spawnSync('tmux', ['has-session', '-t', name]).status).not.toBe(0);
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  }, 60_000);
});

