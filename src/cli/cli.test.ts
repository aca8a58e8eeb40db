// The terminal client against the real server and the fake provider: one-shot questions and
// commands, stdin piped with a question, JSON output, exit codes, no escape codes when stdout is
// not a TTY, the login kept in a 0600 file across runs; and the interactive shell in a real
// pseudo-terminal (tmux): an answer streamed, Tab completion, history, Ctrl+C during an answer.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { HAS_TMUX } from '../../tests/fixtures/tmux.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');

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
function cli(dir: string, args: string[], input = '', env: Record<string, string> = {}, server = t.url): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', server, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '', ...env } });
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

  it('sends what :edit wrote in $EDITOR, and says when nothing was written', async () => {
    const dir = profile();
    const editor = path.join(dir, 'editor.sh');
    // An editor that appends a second line to what it was given.
    writeFileSync(editor, '#!/bin/sh\nprintf "\\nand a second line\\n" >> "$1"\n', { mode: 0o700 });
    fake.reply({ text: 'Two lines read.' });
    expect(await cli(dir, [':edit first line'], '', { EDITOR: editor })).toEqual({ status: 0, out: 'Two lines read.\n', err: '' });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('first line\\nand a second line');
    writeFileSync(editor, '#!/bin/sh\n: > "$1"\n', { mode: 0o700 });
    expect(await cli(dir, [':edit'], '', { EDITOR: editor })).toEqual({ status: 0, out: 'Nothing was written; nothing was sent.\n', err: '' });
  });

  it('lists its own commands in the CLI group of :help, and shows stats and the evaluation under an answer', async () => {
    const dir = profile();
    const help = (await cli(dir, [':help'])).out;
    expect(help).toMatch(/CLI\n.*\n:edit \[<text>\.\.\.\] +Write the input in your editor/);
    expect(help).toContain(':exit');
    expect((await cli(dir, [':stats on'])).out).toBe('Stats on.\n');
    fake.reply({ text: 'Counted.' });
    const answered = await cli(dir, ['count this']);
    expect(answered.status).toBe(0);
    expect(answered.out).toMatch(/^Counted\.\n.*token_ct: \d+/);
  });

  it('keeps the login in a file only its owner can read, and forgets it at logout', async () => {
    const dir = profile();
    expect((await cli(dir, [':user add termi termi@example.org hunter2hunter2'])).out).toBe('User termi added.\nLog in with :login termi <password>.\n');
    expect((await cli(dir, [':login termi hunter2hunter2'])).out).toBe('Logged in as termi.\n');
    const login = path.join(dir, 'login.json');
    expect(statSync(login).mode & 0o777).toBe(0o600);
    expect(readFileSync(login, 'utf8')).not.toContain('hunter2');
    expect((await cli(dir, [':user'])).out).toContain('termi@example.org');
    expect((await cli(dir, [':logout'])).status).toBe(0);
    expect((await cli(dir, [':user'])).err).toBe('Please login.\n');
  });
});

describe('shellchat with subscriptions on', () => {
  let paid: TestServer;
  beforeAll(async () => {
    paid = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', USE_SUBSCRIPTIONS: 'true' });
  }, 60_000);
  afterAll(async () => paid?.close());

  it('needs the plus plan, and says so, while the account and the plans stay reachable', async () => {
    const dir = profile();
    const run = (line: string) => cli(dir, [line], '', {}, paid.url);
    expect((await run(':user add plain plain@example.org hunter2hunter2')).status).toBe(0);
    expect((await run(':login plain hunter2hunter2')).out).toBe('Logged in as plain.\n');
    const gated = 'The command-line client needs the plus_user plan or above. See :subscription ls.\n';
    expect(await run(':role ls')).toEqual({ status: 1, out: '', err: gated });
    expect(await run('hello')).toEqual({ status: 1, out: '', err: gated });
    expect((await run(':subscription ls')).status).toBe(0);
    expect((await run(':user')).out).toContain('plain@example.org');
  }, 30_000);
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
      await until(name, (s) => s.includes('gpt-demo>'));
      // The answer's markdown rendered for the terminal: no asterisks, no fences, a drawn table.
      fake.reply({ text: '# Hi from the REPL\n\nThe **bold** part.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```\n' });
      tmux('send-keys', '-t', name, 'hello', 'Enter');
      const rendered = await until(name, (s) => s.includes('const x = 1;'));
      expect(rendered).toContain('# Hi from the REPL');
      expect(rendered).toContain('The bold part.');
      expect(rendered).toMatch(/│ 1 +│ 2 +│/);
      expect(rendered).not.toContain('```');

      // Several lines pasted stay one input, sent when Enter is pressed.
      tmux('set-buffer', '-b', name, 'first pasted line\nsecond pasted line');
      tmux('paste-buffer', '-p', '-b', name, '-t', name);
      await until(name, (s) => s.trimEnd().endsWith('> [pasted 2 lines #1]'));
      fake.reply({ text: 'Got both.' });
      tmux('send-keys', '-t', name, ' explain', 'Enter');
      await until(name, (s) => s.includes('Got both.'));
      expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('first pasted line\\nsecond pasted line explain');

      // On an empty line, Left shows the session's previous log (the pasted question), Right
      // the next one again, and past the last one says so.
      fake.reply({ text: 'Second answer.' });
      tmux('send-keys', '-t', name, 'second question', 'Enter');
      await until(name, (s) => s.includes('Second answer.'));
      tmux('send-keys', '-t', name, 'Left');
      await until(name, (s) => s.lastIndexOf('Got both.') > s.lastIndexOf('Second answer.') && s.lastIndexOf('second pasted line explain') > s.lastIndexOf('Second answer.'));
      tmux('send-keys', '-t', name, 'Right');
      await until(name, (s) => s.lastIndexOf('Second answer.') > s.lastIndexOf('Got both.'));
      tmux('send-keys', '-t', name, 'Right');
      await until(name, (s) => s.trimEnd().endsWith('gpt-demo>') && s.lastIndexOf('No log found.') > s.lastIndexOf('Second answer.'));

      // Tab completes a command from the manifests.
      tmux('send-keys', '-t', name, ':hel', 'Tab');
      await until(name, (s) => s.trimEnd().endsWith('> :help'));
      tmux('send-keys', '-t', name, 'Enter');
      await until(name, (s) => s.includes(':help [<command>...]'));
      // Tab completes a model name too (from the server's list).
      tmux('send-keys', '-t', name, 'C-u', ':model use "gpt-d', 'Tab');
      await until(name, (s) => s.trimEnd().endsWith('> :model use "gpt-demo"'));
      tmux('send-keys', '-t', name, 'C-u');
      // History: Up brings the last command back.
      tmux('send-keys', '-t', name, 'C-l', 'Up');
      await until(name, (s) => s.trimEnd().endsWith('> :help'));
      tmux('send-keys', '-t', name, 'C-u');

      // Ctrl+C while an answer streams: the provider sees the request closed, the prompt is back.
      const before = fake.requests.length;
      const abortedBefore = fake.aborted();
      fake.reply({ text: 'word word word.\n\n'.repeat(150), delayMs: 50 });
      tmux('send-keys', '-t', name, 'tell me a long story', 'Enter');
      await until(name, (s) => s.includes('word word'));
      const stopped = Date.now();
      tmux('send-keys', '-t', name, 'C-c');
      // The provider sees its request closed (the server stops it when the CLI aborts).
      while (fake.aborted() === abortedBefore && Date.now() - stopped < 2_000) await new Promise((r) => setTimeout(r, 10));
      expect(fake.aborted()).toBe(abortedBefore + 1);
      expect(Date.now() - stopped).toBeLessThan(200);
      await until(name, (s) => s.trimEnd().endsWith('gpt-demo>'), 5_000);
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

  it('sends what :edit wrote as one input, and leaves with :exit', async () => {
    const dir = profile();
    const editor = path.join(dir, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nprintf "edited one\\nedited two\\n" > "$1"\n', { mode: 0o700 });
    const name = `shellchat-edit-${process.pid}`;
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `EDITOR=${editor} SHELLCHAT_CONFIG_DIR=${dir} ${process.execPath} ${MAIN} --server ${t.url}`);
    try {
      await until(name, (s) => s.includes('gpt-demo>'));
      fake.reply({ text: 'Edited text read.' });
      tmux('send-keys', '-t', name, ':edit', 'Enter');
      await until(name, (s) => s.includes('Edited text read.'));
      expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('edited one\\nedited two');
      tmux('send-keys', '-t', name, ':exit', 'Enter');
      const end = Date.now() + 5_000;
      while (spawnSync('tmux', ['has-session', '-t', name]).status === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(spawnSync('tmux', ['has-session', '-t', name]).status).not.toBe(0);
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  }, 30_000);
});

