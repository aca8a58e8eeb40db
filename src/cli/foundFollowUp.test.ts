// Issue 33, the same kinds of fault found elsewhere in the terminal client, walked as a person
// meets them in a real terminal (tmux): a line entered while an answer streams is kept for the
// next prompt with a hint (not dropped, not drawn into the answer), `:stop` then stops the answer;
// `:lang use` takes effect at once; and a log walked back to with Left looks as its answer did.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { VirtualTerminal } from '../../tests/fixtures/virtualTerminal.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { HAS_TMUX } from '../../tests/fixtures/tmux.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
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

describe.skipIf(!HAS_TMUX)('a line entered while an answer streams', () => {
  it('is not sent and not drawn into the answer: it waits in the next prompt under a hint, and Enter then sends it', async () => {
    const name = `follow-busy-${process.pid}`;
    const close = await shell(name, 80, 24);
    try {
      const asked = fake.requests.length;
      fake.reply({ chunks: pieces(RICH), delayMs: 25 });
      await tmux('send-keys', '-t', name, 'first question', 'Enter');
      await until(name, (s) => s.includes('Rendered in place'));
      // Typed, edited (a key that redraws the line, cursor moves) and entered while it streams.
      await tmux('send-keys', '-t', name, '-l', 'what about tabs?x');
      await tmux('send-keys', '-t', name, 'BSpace', 'Left', 'Left', 'Right', 'Right', 'Home', 'End', 'Enter');
      expect(fake.openStreams(), 'the answer was still streaming when Enter was pressed').toBe(1);
      const after = await until(name, promptEnds('what about tabs?'));
      // The line above the prompt says why it was not sent and how an answer is stopped.
      const lines = after.trimEnd().split('\n');
      expect(lines.at(-2)).toBe('Not sent: an answer was streaming (Ctrl+C or :stop stops one). Enter sends it.');
      expect(after).toContain('A last line.');
      expect(fake.requests.length).toBe(asked + 1);

      // Enter sends the kept line; its answer (the same text, nothing typed meanwhile) is the reference.
      fake.reply({ chunks: pieces(RICH), delayMs: 2 });
      await tmux('send-keys', '-t', name, 'Enter');
      await until(name, (s) => s.split('A last line.').length === 3 && promptEnds('')(s));
      expect(fake.requests.length).toBe(asked + 2);
      expect(lastUserText(fake.requests.at(-1)!.body)).toBe('what about tabs?');

      const rows = await screenRows(name, 80);
      const hint = rows.text.findIndex((row) => row.startsWith('Not sent:'));
      const typedOver = between(rows, (row) => row === 'gpt-demo> first question', (row) => row.startsWith('Not sent:'));
      const untouched = between(rows, (row) => row === 'gpt-demo> what about tabs?', (row) => row === 'gpt-demo>', rows.text.length);
      expect(hint).toBeGreaterThan(0);
      expect(typedOver.join('\n')).not.toMatch(/what|tabs/);
      expect(typedOver.length).toBeGreaterThan(10);
      expect(typedOver).toEqual(untouched);
      // The hint is dim.
      expect(rows.styled[hint]).toBe(`[d]${rows.text[hint]}`);
    } finally {
      close();
    }
  }, 90_000);

  it(':stop stops it as Ctrl+C does (the answer so far is kept); a line typed meanwhile waits, in the language just chosen', async () => {
    const name = `follow-stop-${process.pid}`;
    const close = await shell(name, 100, 30);
    try {
      // The language changes at once: its confirmation, and the next command, in German.
      await tmux('send-keys', '-t', name, ':lang use de-DE', 'Enter');
      await until(name, (s) => s.includes('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.') && promptEnds('')(s));
      await tmux('send-keys', '-t', name, ':lang', 'Enter');
      await until(name, (s) => s.includes('Sprache: Deutsch (Deutschland) (de-DE)') && promptEnds('')(s));

      const aborted = fake.aborted();
      fake.reply({ text: 'word word word.\n\n'.repeat(150), delayMs: 40 });
      await tmux('send-keys', '-t', name, 'tell me a long story', 'Enter');
      await until(name, (s) => s.includes('word word'));
      await tmux('send-keys', '-t', name, ':stop', 'Enter');
      const stopped = Date.now();
      while (fake.aborted() === aborted && Date.now() - stopped < 5_000) await sleep(10);
      expect(fake.aborted()).toBe(aborted + 1);
      const after = await until(name, promptEnds(''));
      expect(after).not.toContain(':stop');
      expect(after).not.toContain('Nicht gesendet');
      // The server kept what was answered before the stop.
      await tmux('send-keys', '-t', name, ':log', 'Enter');
      await until(name, (s) => /tell me a long story +word word/.test(s));

      // A line entered while an answer streams, then more typed and not entered: the hint (in
      // German), the line typed since stays in the prompt, and the entered one is a press of Up away.
      const asked = fake.requests.length;
      fake.reply({ text: 'Eine Antwort, langsam geschrieben. '.repeat(20), delayMs: 60 });
      await tmux('send-keys', '-t', name, 'C-l', 'eine Frage', 'Enter');
      await until(name, (s) => s.includes('Eine Antwort'));
      await tmux('send-keys', '-t', name, 'noch eine Frage', 'Enter');
      await tmux('send-keys', '-t', name, 'und mehr');
      expect(fake.openStreams()).toBe(1);
      const kept = await until(name, promptEnds('und mehr'));
      expect(kept.trimEnd().split('\n').at(-2)).toBe('Nicht gesendet: Eine Antwort lief noch (Ctrl+C oder :stop stoppt sie). Enter sendet den Text.');
      expect(fake.requests.length).toBe(asked + 1);
      await tmux('send-keys', '-t', name, 'C-u', 'Up');
      await until(name, promptEnds('noch eine Frage'));

      // :lang reset goes back at once too.
      await tmux('send-keys', '-t', name, 'C-u', ':lang reset', 'Enter');
      await until(name, (s) => s.includes('Language reset.') && promptEnds('')(s));
      await tmux('send-keys', '-t', name, ':lang', 'Enter');
      await until(name, (s) => s.includes('Language not set.') && promptEnds('')(s));
    } finally {
      close();
    }
  }, 90_000);
});

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
