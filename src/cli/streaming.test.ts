// Issue 33 item 1, as a person meets it in a real pseudo-terminal (tmux): a long paragraph sent
// slowly shows word by word (each within 500 ms of the provider sending it, where it used to show
// nothing until the paragraph ended), no finished text is written twice (the bytes the pane
// received are counted), and a rich answer streamed in small pieces leaves the same screen as
// the same answer printed at once with --no-stream, at 80 and 120 columns.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { VirtualTerminal } from '../../tests/fixtures/virtualTerminal.ts';
import { textWidth } from './termText.ts';
import { HAS_TMUX } from '../../tests/fixtures/tmux.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
// A tmux server of this file's own (others' tests use the default one), kept up between tests by
// an idle session; asynchronous, so the server and the fake provider in this process keep running.
const SOCKET = ['-L', `shellchat-stream-${process.pid}`];
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

/** A tmux window running `command` (kept open after it exits), its size, and a file of every byte it received. */
async function pane(name: string, columns: number, rows: number, command: string): Promise<{ bytes: () => string; close: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-stream-'));
  const raw = path.join(dir, 'pane.raw');
  // The pane starts on a shell that waits, so the byte capture is on before the client writes.
  await tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), `read go; SHELLCHAT_CONFIG_DIR=${dir} ${process.execPath} ${MAIN} --server ${t.url} ${command}; sleep 600`);
  await tmux('pipe-pane', '-t', name, '-o', `cat >> ${raw}`);
  await tmux('send-keys', '-t', name, 'Enter');
  return {
    bytes: () => readFileSync(raw, 'utf8'),
    close: () => void spawnSync('tmux', [...SOCKET, 'kill-session', '-t', name]),
  };
}

/**
 * The pane's rows, scrollback included: rows wrapped by the terminal joined into their line, or,
 * `styled`, the grid as it shows, row by row, with each cell's colours and attributes.
 */
const capture = (name: string, styled = false) => tmux('capture-pane', '-p', styled ? '-e' : '-J', '-S', '-', '-t', name);

async function until(name: string, test: (text: string) => boolean, ms = 15_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const text = await capture(name);
    if (test(text)) return text;
    if (Date.now() > end) throw new Error(`screen never matched; its end:\n${text.trimEnd().split('\n').slice(-12).join('\n')}`);
    await sleep(20);
  }
}

describe.skipIf(!HAS_TMUX)('a streamed answer in the terminal', () => {
  it('shows a slow paragraph word by word, its first words within 500 ms of the provider sending them, each written once', async () => {
    const name = `shellchat-slow-${process.pid}`;
    const p = await pane(name, 80, 24, '');
    try {
      await until(name, (s) => s.includes('gpt-demo>') || s.includes('shellchat>'));
      // One paragraph, one line of source, wider than the window: 10 tokens a second, each
      // stamped by the provider with the moment it is written (performance.now() in this process).
      const words = Array.from({ length: 30 }, (_, i) => `w${String(i).padStart(2, '0')}@@ `);
      fake.reply({ chunks: [...words, 'end of the paragraph.\n\nA second paragraph.'], delayMs: 100, stamp: true });
      await tmux('send-keys', '-t', name, 'tell me slowly', 'Enter');
      // How long after it was sent each word was first seen on the screen.
      const seen = new Map<string, number>();
      const deadline = Date.now() + 20_000;
      while (seen.size < words.length && Date.now() < deadline) {
        const text = (await capture(name)).replace(/\n/g, '');
        const now = performance.now();
        for (const [, token, stamp] of text.matchAll(/(w\d\d)(\d+\.\d{3}) /g)) if (!seen.has(token!)) seen.set(token!, now - Number(stamp));
        await sleep(20);
      }
      await until(name, (s) => s.includes('A second paragraph.'));
      expect(seen.size).toBe(words.length);
      // The first words within the 500 ms (block by block, they took 3 s: the paragraph's
      // length), and the paragraph word by word: most of its words within that bound too (a
      // loaded machine may delay a few).
      const delays = JSON.stringify([...seen]);
      for (const first of ['w00', 'w01', 'w02']) expect(seen.get(first), delays).toBeLessThanOrEqual(500);
      const sorted = [...seen.values()].sort((a, b) => a - b);
      expect(sorted[sorted.length >> 1], delays).toBeLessThanOrEqual(500);
      // Nothing finished is written twice: every stamped word reached the pane once.
      const bytes = p.bytes();
      for (const [, token, stamp] of (await capture(name)).replace(/\n/g, '').matchAll(/(w\d\d)(\d+\.\d{3}) /g)) {
        expect(bytes.split(`${token}${stamp}`).length - 1, token).toBe(1);
      }
      expect(bytes.split('end of the paragraph.').length - 1).toBe(1);
      expect(bytes.split('A second paragraph.').length - 1).toBe(1);
    } finally {
      p.close();
    }
  }, 60_000);
});

describe.skipIf(!HAS_TMUX)('text widths', () => {
  it("measures text in the columns tmux gives it: CJK, emoji, combining marks, right-to-left", async () => {
    const samples = ['愛麗絲', 'ボブ', '김철수', '😀', '👍', '🎉🎉', 'é', 'e\u0301', 'שָׁלוֹם', 'مرحبا', '│─┌', 'plain'];
    const name = `shellchat-widths-${process.pid}`;
    await tmux('new-session', '-d', '-s', name, '-x', '80', '-y', '5', 'sleep 600');
    try {
      for (const sample of samples) {
        await tmux('respawn-pane', '-k', '-t', name, `printf '%s' '${sample}'; sleep 600`);
        let column = '';
        for (let tries = 0; tries < 100 && (column = (await tmux('display', '-p', '-t', name, '#{cursor_x}')).trim()) === '0'; tries++) await sleep(20);
        expect(Number(column), sample).toBe(textWidth(sample));
      }
    } finally {
      spawnSync('tmux', [...SOCKET, 'kill-session', '-t', name]);
    }
  }, 30_000);
});

/**
 * A styled capture as cells: tmux writes the same cells with different escape sequences
 * depending on which were written and which erased, so the rows are compared once applied.
 */
function grid(captured: string, columns: number): string {
  const screen = new VirtualTerminal(columns, 1000);
  screen.write(captured);
  return screen.styled();
}

/** The terminal columns of a table line's border characters. */
function borderColumns(line: string): string {
  const columns: number[] = [];
  let at = 0;
  for (const ch of line) {
    if ('│┌┬┐├┼┤└┴┘'.includes(ch)) columns.push(at);
    at += textWidth(ch);
  }
  return columns.join(',');
}

// Pseudo-random piece sizes from 1 to 9 characters (a fixed seed, so a failure repeats).
function pieces(text: string, seed = 11): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % 9);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const RICH = [
  '# Streaming in the terminal',
  '',
  'A paragraph long enough to wrap over several rows at eighty columns, with **bold**, *emphasis*, `code`, a [link](https://example.com/docs) and ~~struck~~ words, written as one line of source as models write them, so that the terminal wraps it.',
  '',
  '## A list',
  '',
  '- first item with `inline code`',
  '- second item, longer than the others so that it wraps at the narrow width of eighty columns when it is shown',
  '  - a nested item',
  '1. ordered one',
  '2. ordered two',
  '',
  '> A quote that says something **important**.',
  '',
  'Inline math $x^2 + y_i$ and $$E = mc^2$$ in a line; \\$5 is a price.',
  '',
  '| Name | 名前 | Emoji | Notes |',
  '|:-----|:----:|------:|-------|',
  '| Alice | 愛麗絲 | 😀 | likes tables |',
  '| Bob | ボブ | 👍 | wide characters keep the borders aligned, even when a cell wraps inside its column |',
  '| Carol | 김철수 | 🎉🎉 | `code` in a cell, שָׁלוֹם and مرحبا |',
  '',
  '```js',
  '// highlighted once each line ends',
  'const answer = 42;',
  'console.log(`answer: ${answer}`);',
  '```',
  '',
  '$$',
  String.raw`\sum_{i=1}^{n} x_i^2 \leq \left( \sum_{i=1}^{n} x_i \right)^{2}`,
  '$$',
  '',
  '$$',
  String.raw`\begin{aligned}`,
  String.raw`f(x) &= x^2 + 1 \\`,
  String.raw`g(x) &= \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}`,
  String.raw`\end{aligned}`,
  '$$',
  '',
  '$$',
  String.raw`M = \begin{bmatrix} 1 & 中 \\ 3 & 4 \end{bmatrix}`,
  '$$',
  '',
  'Setext heading',
  '==============',
  '',
  '| # | square |',
  '|---|--------|',
  ...Array.from({ length: 30 }, (_, i) => `| ${i} | ${i * i} |`),
  '',
  'A last line.',
].join('\n');

describe.skipIf(!HAS_TMUX)('the final screen of a streamed answer', () => {
  for (const columns of [80, 120]) {
    it(`equals the same answer printed at once (--no-stream), at ${columns} columns`, async () => {
      const rows = columns === 80 ? 24 : 40;
      const screens: string[] = [];
      for (const streamed of [true, false]) {
        const name = `shellchat-final-${columns}-${streamed}-${process.pid}`;
        fake.reply(streamed ? { chunks: pieces(RICH), delayMs: 2 } : { text: RICH });
        const p = await pane(name, columns, rows, `${streamed ? '' : '--no-stream '}"show me everything"; echo __done__`);
        try {
          await until(name, (s) => s.includes('__done__'), 30_000);
          screens.push(grid(await capture(name, true), columns));
          if (streamed) {
            // Drawn, highlighted and aligned: no markdown left, the table's borders in line.
            const text = await capture(name);
            expect(text).not.toMatch(/\*\*|```|\|---|\$\$|\\sum/);
            expect(text).toContain('  ∑ᵢ₌₁ⁿ xᵢ² ≤ (∑ᵢ₌₁ⁿ xᵢ)²');
            // An environment over lines, drawn once its math closes; a matrix as a grid (tmux keeps
            // the cells a redraw erased as trailing spaces).
            const rows = text.replace(/ +$/gm, '');
            expect(rows).toContain('Inline math x² + yᵢ and E = mc² in a line; $5 is a price.');
            expect(rows).toContain('  f(x) = x² + 1\n  g(x) = ⎰ 1  x > 0\n         ⎱ 0  otherwise');
            expect(rows).toContain('  M = ⎡ 1  中 ⎤\n      ⎣ 3  4  ⎦');
            expect(text).not.toMatch(/\\begin|&=/);
            expect(text).toMatch(/│ Bob +│ +ボブ +│ +👍 │ wide characters/);
            // Every row of the first table has its borders in the same columns, wide characters or not.
            const lines = text.split('\n');
            const table = lines.slice(lines.findIndex((l) => l.startsWith('┌')), lines.findIndex((l) => l.startsWith('└')) + 1);
            expect(table.some((l) => l.includes('愛麗絲'))).toBe(true);
            expect(new Set(table.map(borderColumns)).size).toBe(1);
          }
        } finally {
          p.close();
        }
      }
      expect(screens[0]).toBe(screens[1]);
    }, 90_000);
  }
});
