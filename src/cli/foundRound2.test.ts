// Issue 33 (items 2 to 8), walked as a person meets each: the CLI spawned for pipes, flags and
// exit codes, and in a real terminal (tmux) for the prompt, `:clear` and tables at 120 columns.
// The plus plan's gate for a visitor, a closed stdout, an unreachable server said as such, flags
// that fail or apply to their run only, browser-only commands and settings saying so, and an
// editor that fails.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { HAS_TMUX } from '../../tests/fixtures/tmux.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
// Each CLI run starts a Node process: a second or more on a loaded machine, several per test.
vi.setConfig({ testTimeout: 90_000 });

let fake: FakeOpenAI;
let t: TestServer;
let paid: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  const env = { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' };
  [t, paid] = await Promise.all([startTestServer('sqlite', env), startTestServer('sqlite', { ...env, USE_SUBSCRIPTIONS: 'true' })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.close(), paid?.close()]);
  await fake?.close();
});

const profile = () => mkdtempSync(path.join(tmpdir(), 'shellchat-found-'));
type Ran = { status: number | null; out: string; err: string };
/** The CLI as a child process; `server` undefined: no --server flag (SHELLCHAT_SERVER or the default). */
function cli(dir: string, args: string[], options: { input?: string; env?: Record<string, string>; server?: string | undefined } = {}): Promise<Ran> {
  const server = 'server' in options ? options.server : t.url;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...(server ? ['--server', server] : []), ...args], {
      env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '', SHELLCHAT_SERVER: '', ...options.env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end(options.input ?? '');
  });
}
/** A command line run by bash, as typed in a terminal (`set -o pipefail`: the CLI's own exit code). */
function shell(dir: string, line: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -o pipefail; ${line}`], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end();
  });
}
/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const settingsOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;

const CLI_LOGIN =
  'The command-line client needs an account on the plus_user plan or above: log in with :login <username> <password> (new here? :user add <username> <email> <password>), then see :subscription ls.\n';
const CLI_PLAN = 'The command-line client needs the plus_user plan or above. See :subscription ls.\n';

describe('item 2: the plus plan cannot be skipped by logging out', () => {
  it('tells a visitor how to log in, a free plan what it needs, and a visitor again after :logout; nothing reaches the model', async () => {
    const dir = profile();
    const run = (line: string) => cli(dir, [line], { server: paid.url });
    const asked = fake.requests.length;
    expect(await run('hello')).toEqual({ status: 1, out: '', err: CLI_LOGIN });
    expect(await run(':model ls')).toEqual({ status: 1, out: '', err: CLI_LOGIN });
    // What a visitor needs to become a customer stays open: the plans, signing up, logging in.
    expect((await run(':subscription ls')).out).toContain('plus_user');
    expect((await run(':user add bob bob@example.org hunter2hunter2')).out).toBe('User bob added.\nLog in with :login bob <password>.\n');
    expect((await run(':login bob hunter2hunter2')).out).toBe('Logged in as bob.\n');
    expect(await run('hello')).toEqual({ status: 1, out: '', err: CLI_PLAN });
    expect((await run(':logout')).status).toBe(0);
    expect(await run('hello')).toEqual({ status: 1, out: '', err: CLI_LOGIN });
    // In the interface's language, as every refusal with a code is.
    expect((await run(':lang use de-DE')).status).toBe(0);
    expect((await run('hello')).err).toMatch(/^Der Kommandozeilen-Client braucht ein Konto mit dem Plan plus_user oder höher: Melde dich mit :login/);
    expect(fake.requests.length).toBe(asked);
  });

  it('knows the CLI by its header only: a visitor without it is served as the web page serves one', async () => {
    const gated = await fetch(`${paid.url}/api/model/list`, { headers: { 'x-shellchat-client': 'cli' } });
    expect(gated.status).toBe(403);
    expect(await gated.json()).toMatchObject({ success: false, code: 'subscription.cliLogin' });
    // The page's visitor (no header) lists the models as before: the gate is the CLI's plan, not a lock.
    expect((await fetch(`${paid.url}/api/model/list`)).status).toBe(200);
  });
});

describe('item 4: a closed stdout is a quiet exit', () => {
  // More than a pipe holds: the CLI is still writing when `head` has gone.
  const long = () => fake.reply({ chunks: Array.from({ length: 64 }, () => 'line of text\n'.repeat(1000)) });

  it.each([
    ['waiting for the whole answer', '--no-stream'],
    ['streaming', '--stream'],
  ])('%s: `shellchat ... | head -1` prints the line, no trace, exit 0', async (_how, flag) => {
    long();
    const ran = await shell(profile(), `"${process.execPath}" "${MAIN}" --server ${t.url} ${flag} "a long answer" | head -1`);
    expect(ran).toEqual({ status: 0, out: 'line of text\n', err: '' });
  });
});

describe('item 5: a server that cannot be reached is named, with why', () => {
  it('refuses a --server (or SHELLCHAT_SERVER) that is not a URL, in one line', async () => {
    const dir = profile();
    expect(await cli(dir, ['hi'], { server: 'notaurl' })).toEqual({
      status: 1,
      out: '',
      err: '--server "notaurl" is not a server address: give its URL, such as http://localhost:3000.\n',
    });
    expect(await cli(dir, ['hi'], { server: undefined, env: { SHELLCHAT_SERVER: 'ftp://example.org' } })).toEqual({
      status: 1,
      out: '',
      err: 'SHELLCHAT_SERVER "ftp://example.org" is not a server address: give its URL, such as http://localhost:3000.\n',
    });
  });

  it('says which server did not answer and why, for a question (streamed or not) and a command; :info says it too', async () => {
    const dir = profile();
    const server = `http://127.0.0.1:${await closedPort()}`;
    const said = `Could not reach the server ${server}: nothing answers at that address (connection refused).\n`;
    for (const args of [['hi'], ['--no-stream', 'hi'], [':model ls'], [':login bob hunter2hunter2']]) {
      expect(await cli(dir, args, { server }), args.join(' ')).toEqual({ status: 1, out: '', err: said });
    }
    const info = await cli(dir, [':info'], { server });
    expect(info.out).toMatch(/^Status +not reachable: nothing answers at that address \(connection refused\)$/m);
    expect(info.out).toMatch(new RegExp(`^Server +${server}$`, 'm'));
    // fetch never connects to some ports (1 among them): said as such, not as 'offline'.
    expect((await cli(dir, ['hi'], { server: 'http://127.0.0.1:1' })).err).toBe('Could not reach the server http://127.0.0.1:1: port 1 is one that HTTP clients refuse to use.\n');
    // A host name that does not resolve.
    expect((await cli(dir, ['hi'], { server: 'http://no-such-host.invalid' })).err).toBe('Could not reach the server http://no-such-host.invalid: no host is named no-such-host.invalid.\n');
    // Something else answers at that address (here the fake provider, whose errors are objects): its status, no trace.
    const other = new URL(fake.url).origin;
    for (const args of [['hi'], ['--no-stream', 'hi'], [':login bob hunter2hunter2']]) {
      expect(await cli(dir, args, { server: other }), args.join(' ')).toEqual({ status: 1, out: '', err: 'Request failed with status 404\n' });
    }
    // Where the server answers, :info says so, with its default model.
    const online = await cli(dir, [':info']);
    expect(online.out).toMatch(/^Status +online$/m);
    expect(online.out).toMatch(/^Model +gpt-demo$/m);
  });
});

describe('item 7: flags fail or apply, for their run only', () => {
  it('fails on an unknown --role or --model before asking anything, as :role use and :model use do', async () => {
    const dir = profile();
    const asked = fake.requests.length;
    expect(await cli(dir, ['--role', 'nosuch', 'hi'])).toEqual({ status: 1, out: '', err: 'Role "nosuch" does not exist.\n' });
    expect(await cli(dir, ['--model', 'nosuch', 'hi'])).toEqual({ status: 1, out: '', err: 'Model not found.\n' });
    expect(await cli(dir, ['--model', '', 'hi'])).toEqual({ status: 1, out: '', err: '--model needs a name.\n' });
    expect(fake.requests.length).toBe(asked);
  });

  it('uses --role, --model and --no-stream for the run they are given to, and keeps the saved settings', async () => {
    const dir = profile();
    expect((await cli(dir, [':user add flagger flagger@example.org hunter2hunter2'])).status).toBe(0);
    expect((await cli(dir, [':login flagger hunter2hunter2'])).status).toBe(0);
    expect((await cli(dir, [':role add "pirate" "Answer as a pirate."'])).status).toBe(0);
    expect((await cli(dir, [':role reset'])).status).toBe(0);
    fake.reply({ text: 'Arr.' });
    expect(await cli(dir, ['--role', 'pirate', '--model', 'gpt-demo', '--no-stream', 'hello'])).toEqual({ status: 0, out: 'Arr.\n', err: '' });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('Answer as a pirate.');
    // The next run is as saved: no role, the default model, streaming on.
    expect(settingsOf(dir)).toMatchObject({ role: '', model: '', useStream: true });
    fake.reply({ text: 'Hello.' });
    expect((await cli(dir, ['hello'])).out).toBe('Hello.\n');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain('Answer as a pirate.');
  });

  it('refuses --json without a question, and takes piped text as the input when none is given', async () => {
    const dir = profile();
    expect(await cli(dir, ['--json'])).toEqual({ status: 1, out: '', err: 'Nothing to send: give a question or a :command, as text or on stdin.\n' });
    expect(await cli(dir, [':stats on'], {})).toEqual({ status: 0, out: 'Stats on.\n', err: '' });
    expect(await cli(dir, [], { input: ':stats off\n' })).toEqual({ status: 0, out: 'Stats off.\n', err: '' });
    expect(await cli(dir, [''])).toEqual({ status: 1, out: '', err: 'Nothing to send: give a question or a :command, as text or on stdin.\n' });
  });
});

describe('item 6: what works in the browser only says so in the CLI', () => {
  it('refuses :split and the browser-only settings, and leaves them out of :info and :set all', async () => {
    const dir = profile();
    expect(await cli(dir, [':split'])).toEqual({ status: 1, out: '', err: ':split works in the browser only.\n' });
    expect(await cli(dir, [':fullscreen split'])).toEqual({ status: 1, out: '', err: ':fullscreen works in the browser only.\n' });
    // :stop at the prompt: nothing runs then; how an answer is stopped here.
    expect(await cli(dir, [':stop'])).toEqual({ status: 0, out: 'Nothing is being answered now; Ctrl+C (or :stop) stops an answer as it streams.\n', err: '' });
    for (const [key, value] of [['theme', 'dark'], ['fullscreen', 'split'], ['useSpeak', 'true'], ['voice', 'x'], ['useLocation', 'true']]) {
      expect(await cli(dir, [`:set ${key} ${value}`])).toEqual({ status: 1, out: '', err: `:set ${key} works in the browser only.\n` });
    }
    const info = (await cli(dir, [':info'])).out;
    const all = (await cli(dir, [':set all'])).out;
    for (const key of ['theme', 'fullscreen', 'useSpeak', 'voice', 'useLocation']) {
      expect(info).not.toMatch(new RegExp(`^${key} `, 'm'));
      expect(all).not.toContain(`"${key}"`);
    }
    expect(info).toMatch(/^useStream +true$/m);
    expect(all).toContain('"memLength"');
  });

  it('names the server for a page of the browser (buying a plan)', async () => {
    const dir = profile();
    const run = (line: string) => cli(dir, [line], { server: paid.url });
    expect((await run(':user add payer payer@example.org hunter2hunter2')).status).toBe(0);
    expect((await run(':login payer hunter2hunter2')).status).toBe(0);
    expect(await run(':subscription buy plus_user')).toEqual({
      status: 0,
      out: `Pay for plus_user on the Subscriptions page.\nThe Subscriptions page is in the browser: open ${paid.url}.\n`,
      err: '',
    });
  });
});

describe('item 8: an editor that fails is said as such', () => {
  it('says the editor exited with its status, or was not found, and sends nothing', async () => {
    const dir = profile();
    const editor = path.join(dir, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nexit 3\n', { mode: 0o700 });
    const asked = fake.requests.length;
    expect(await cli(dir, [':edit a question'], { env: { EDITOR: editor } })).toEqual({
      status: 1,
      out: '',
      err: `The editor (${editor}) exited with status 3; nothing was sent.\n`,
    });
    const missing = await cli(dir, [':edit'], { env: { EDITOR: 'no-such-editor-here', VISUAL: '' } });
    expect(missing.status).toBe(1);
    expect(missing.err).toContain('The editor (no-such-editor-here) was not found: set $VISUAL or $EDITOR to your editor. Nothing was sent.\n');
    expect(fake.requests.length).toBe(asked);
  });
});

describe.skipIf(!HAS_TMUX)('in a terminal (tmux, 120 columns)', () => {
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = (name: string, all = true) => tmux('capture-pane', '-p', ...(all ? ['-S', '-'] : []), '-t', name);
  async function until(name: string, test: (text: string) => boolean, ms = 15_000, all = true): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const text = screen(name, all);
      if (test(text)) return text;
      if (Date.now() > end) throw new Error(`screen never matched; its end:\n${text.trimEnd().split('\n').slice(-12).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const start = (name: string, dir: string, server: string) =>
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `SHELLCHAT_CONFIG_DIR=${dir} ${process.execPath} ${MAIN} --server ${server}`);

  it('item 3: the prompt shows the model in use (the server default), and passwords show when passMask is off', async () => {
    const name = `found-prompt-${process.pid}`;
    start(name, profile(), t.url);
    try {
      await until(name, (s) => s.trimEnd().endsWith('gpt-demo>'));
      tmux('send-keys', '-t', name, ':set passMask false', 'Enter');
      await until(name, (s) => s.includes('passMask'));
      tmux('send-keys', '-t', name, ':user add shown shown@example.org shown-password-1');
      await until(name, (s) => s.trimEnd().endsWith('gpt-demo> :user add shown shown@example.org shown-password-1'));
      tmux('send-keys', '-t', name, 'Enter');
      await until(name, (s) => s.includes('User shown added.'));
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  });

  it('item 5: a shell whose server does not answer says so before its first prompt, and :info agrees', async () => {
    const name = `found-offline-${process.pid}`;
    const server = `http://127.0.0.1:${await closedPort()}`;
    start(name, profile(), server);
    try {
      const first = await until(name, (s) => s.trimEnd().endsWith('shellchat>'));
      expect(first).toContain(`Could not reach the server ${server}: nothing answers at that address (connection refused).`);
      tmux('send-keys', '-t', name, 'hello', 'Enter');
      await until(name, (s) => s.split('Could not reach the server').length === 3 && s.trimEnd().endsWith('shellchat>'));
      tmux('send-keys', '-t', name, ':info', 'Enter');
      const info = await until(name, (s) => s.includes('Status'));
      expect(info).toMatch(/Status +not reachable: nothing answers at that address \(connection refused\)/);
      expect(info).not.toContain('online');
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  });

  it('items 6 and 8: :clear clears the screen; :help and :session tables wrap within 120 columns, under their own column', async () => {
    const name = `found-tables-${process.pid}`;
    start(name, profile(), t.url);
    try {
      await until(name, (s) => s.trimEnd().endsWith('gpt-demo>'));
      tmux('send-keys', '-t', name, ':help', 'Enter');
      const help = await until(name, (s) => s.includes(':exit'));
      const lines = help.split('\n');
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
      // A long description goes on under the description column, not at the screen's left edge.
      const row = lines.findIndex((l) => l.startsWith(':function ls '));
      const column = lines[row]!.indexOf('List callables');
      expect(lines[row + 1]).toMatch(new RegExp(`^ {${column}}\\S`));

      tmux('send-keys', '-t', name, ':clear', 'Enter');
      await until(name, (s) => s.trim() === 'gpt-demo>', 5_000, false);

      // :session's previews of two long questions and answers.
      tmux('send-keys', '-t', name, ':user add tabler tabler@example.org hunter2hunter2', 'Enter');
      await until(name, (s) => s.includes('User tabler added.'));
      tmux('send-keys', '-t', name, ':login tabler hunter2hunter2', 'Enter');
      await until(name, (s) => s.includes('Logged in as tabler.'));
      const words = (w: string) => `${w} `.repeat(40).trim();
      fake.reply({ text: words('answer') });
      tmux('send-keys', '-t', name, words('question'), 'Enter');
      await until(name, (s) => s.includes('answer answer answer'));
      tmux('send-keys', '-t', name, 'C-l', ':session', 'Enter');
      const session = await until(name, (s) => /^Time +Input +Output/m.test(s) && s.trimEnd().endsWith('gpt-demo>'), 15_000, false);
      const rows = session.split('\n');
      expect(Math.max(...rows.map((l) => l.length))).toBeLessThanOrEqual(120);
      const header = rows.findIndex((l) => /^Time +Input +Output/.test(l));
      const input = rows[header]!.indexOf('Input');
      // The log's row, then its preview's next lines, indented to the Input column.
      expect(rows[header + 1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +question question/);
      expect(rows[header + 2]).toMatch(new RegExp(`^ {${input}}question`));
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  });
});
