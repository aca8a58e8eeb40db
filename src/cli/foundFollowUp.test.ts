// Issue 33, the same kinds of fault found elsewhere in the terminal client, walked as a person
// meets them (a spawned CLI, a real terminal in tmux): `:lang use` takes effect at once; and a
// log walked back to with Left looks as its answer did.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { VirtualTerminal } from '../../tests/fixtures/virtualTerminal.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
if (!HAS_TMUX && process.env.CI === 'true') throw new Error('tmux is required under CI=true');
// A tmux server of this file's own, kept up by an idle session; driven asynchronously, so the
// server and the fake provider in this process keep streaming while the test waits.
const SOCKET = ['-L', `shellchat-follow-${process.pid}`];
const tmux = async (...args: string[]) => (await promisify(execFile)('tmux', [...SOCKET, ...args], { encoding: 'utf8' })).stdout;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: FakeOpenAI;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
  if (HAS_TMUX) await tmux('new-session', '-d', '-s', 'idle', 'sleep 3600');
}, 60_000);
afterAll(async () => {
  if (HAS_TMUX) spawnSync('tmux', [...SOCKET, 'kill-server']);
  await t?.close();
  await fake?.close();
});

const profile = () => mkdtempSync(path.join(tmpdir(), 'shellchat-follow-'));

/** The interactive shell in a tmux window of this size; resolves once its first prompt shows. */
async function shell(name: string, columns: number, rows: number): Promise<() => void> {
  await tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), `SHELLCHAT_CONFIG_DIR=${profile()} ${process.execPath} ${MAIN} --server ${t.url}; sleep 600`);
  const close = () => void spawnSync('tmux', [...SOCKET, 'kill-session', '-t', name]);
  try {
    await until(name, (s) => s.trimEnd().endsWith('gpt-demo>'));
  } catch (err) {
    close();
    throw err;
  }
  return close;
}

/**
 * The pane's rows, scrollback included: rows wrapped by the terminal joined into their line, or,
 * `styled`, the grid as it shows, row by row, with each cell's colours and attributes.
 */
const capture = (name: string, styled = false) => tmux('capture-pane', '-p', styled ? '-e' : '-J', '-S', '-', '-t', name);

async function until(name: string, test: (text: string) => boolean, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const text = await capture(name);
    if (test(text)) return text;
    if (Date.now() > end) throw new Error(`screen never matched; its end:\n${text.trimEnd().split('\n').slice(-12).join('\n')}`);
    await sleep(30);
  }
}

const promptEnds = (line: string) => (s: string) => s.trimEnd().endsWith(`gpt-demo>${line ? ` ${line}` : ''}`);

/**
 * The screen as rows of styled cells (tmux writes the same cells with different escape sequences
 * depending on how they were drawn), and the same rows as text, to find where things are.
 */
async function screenRows(name: string, columns: number): Promise<{ styled: string[]; text: string[] }> {
  const screen = new VirtualTerminal(columns, 1000);
  screen.write(await capture(name, true));
  return { styled: screen.styled().split('\n'), text: screen.text().split('\n') };
}

/** The styled rows between the row `from` matches (its last such row before `before`) and the next row `to` matches. */
function between(rows: { styled: string[]; text: string[] }, from: (row: string) => boolean, to: (row: string) => boolean, before = rows.text.length): string[] {
  const start = rows.text.slice(0, before).findLastIndex(from);
  expect(start, 'the row the region starts under').toBeGreaterThanOrEqual(0);
  const end = rows.text.findIndex((row, i) => i > start && to(row));
  expect(end, 'the row the region ends over').toBeGreaterThan(start);
  return rows.styled.slice(start + 1, end);
}

// Pseudo-random piece sizes from 1 to 9 characters (a fixed seed, so a failure repeats).
function pieces(text: string, seed = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % 9);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

// An answer with what the renderer redraws in place: segments closing (bold, code, a link), a
// wrapped paragraph, a list, a quote, a table drawn once it ends (wide characters), code lines.
const RICH = [
  '# Rendered in place',
  '',
  'A paragraph long enough to wrap over several rows at eighty columns, with **bold**, *emphasis*, `code` and a [link](https://example.com/docs), written as one line of source.',
  '',
  '- first item with `inline code`',
  '- second item, **strong** at the end',
  '',
  '> A quote that says something **important**.',
  '',
  '| Name | 名前 | Notes |',
  '|:-----|:----:|-------|',
  '| Alice | 愛麗絲 | likes tables |',
  '| Bob | ボブ | 👍 wide characters keep the borders aligned |',
  '',
  '```js',
  'const answer = 42;',
  'console.log(`answer: ${answer}`);',
  '```',
  '',
  'A last line.',
].join('\n');

/** The CLI as a child process, one command. */
function cli(dir: string, line: string): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', t.url, line], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end();
  });
}

describe(':lang use, run as one command', () => {
  it('answers in the language it sets, and :lang reset in the one it goes back to', async () => {
    const dir = profile();
    expect(await cli(dir, ':lang use de-DE')).toEqual({ status: 0, out: 'Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.\n', err: '' });
    expect(await cli(dir, ':lang reset')).toEqual({ status: 0, out: 'Language reset.\n', err: '' });
    expect(await cli(dir, ':lang use fr-FR')).toEqual({ status: 0, out: 'Langue définie sur français (France) (fr-FR).\n', err: '' });
  });
});

describe.skipIf(!HAS_TMUX)('a log walked back to', () => {
  it('leaves the screen its answer left (the same renderer)', async () => {
    const name = `follow-log-${process.pid}`;
    const close = await shell(name, 80, 24);
    try {
      fake.reply({ chunks: pieces(RICH), delayMs: 2 });
      await tmux('send-keys', '-t', name, 'show me everything', 'Enter');
      await until(name, (s) => s.includes('A last line.') && promptEnds('')(s));
      fake.reply({ text: 'Second answer.' });
      await tmux('send-keys', '-t', name, 'second', 'Enter');
      await until(name, (s) => s.includes('Second answer.') && promptEnds('')(s));
      await tmux('send-keys', '-t', name, 'Left');
      await until(name, (s) => s.split('A last line.').length === 3 && promptEnds('')(s));

      const rows = await screenRows(name, 80);
      const answered = between(rows, (row) => row === 'gpt-demo> show me everything', (row) => row.startsWith('gpt-demo>'));
      const walked = between(rows, (row) => row === 'show me everything', (row) => row.startsWith('gpt-demo>'));
      expect(answered.length).toBeGreaterThan(10);
      expect(walked).toEqual(answered);
    } finally {
      close();
    }
  }, 60_000);
});
