// The terminal's markdown as it arrives (markdown.ts), on a screen kept in memory: text shows
// before its line ends, only the line being written is redrawn (tables aside, drawn once they
// end), nothing goes back out of the window's reach, and whatever pieces the answer comes in,
// the screen is the one the same answer leaves printed at once, at 80 and 120 columns.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { markdownDocument } from '../../tests/fixtures/markdownArbitrary.ts';
import { VirtualTerminal } from '../../tests/fixtures/virtualTerminal.ts';
import { answerSink, WRITE_MS } from './answer.ts';
import { LiveMarkdown } from './markdown.ts';
import { markdownTools } from './markdownTools.ts';
import { textWidth } from './termText.ts';

const tools = await markdownTools()('```');

function render(chunks: readonly string[], columns = 80, rows = 24) {
  const screen = new VirtualTerminal(columns, rows);
  let bytes = 0;
  const live = new LiveMarkdown(tools, { columns, rows }, (b) => {
    bytes += b.length;
    screen.write(b);
  });
  for (const c of chunks) live.push(c);
  live.end();
  return { screen, bytes, live };
}

/** The answer cut at `sizes` (repeated), as a provider's deltas. */
function cut(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** The answer in pieces of 1, 2 and 5, 7 and 3 and 1, and in two cut anywhere, leaves the screen it leaves printed at once (24 and 8 rows). */
function sameCutAnywhere(answer: string): void {
  for (const rows of [24, 8]) {
    const once = render([answer], 80, rows).screen.styled();
    for (const sizes of [[1], [2, 5], [7, 3, 1]]) expect(render(cut(answer, sizes), 80, rows).screen.styled()).toBe(once);
    for (let at = 1; at < answer.length; at++) expect(render([answer.slice(0, at), answer.slice(at)], 80, rows).screen.styled(), `cut at ${at}`).toBe(once);
  }
}

/** The terminal columns of a table line's border characters. */
function borderColumns(line: string): string {
  const at: number[] = [];
  let column = 0;
  for (const ch of line) {
    if ('│┌┬┐├┼┤└┴┘'.includes(ch)) at.push(column);
    column += textWidth(ch);
  }
  return at.join(',');
}

const tableLines = (text: string) => text.split('\n').filter((l) => /^[┌│├└]/.test(l));

const ANSWER = [
  '# Heading',
  '',
  'A paragraph with *emphasis*, **bold** and `code`,',
  'over two lines.',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '2. second',
  '',
  '| a | b |',
  '|---|--:|',
  '| 1 | 2 |',
  '| 3 | 4 |',
  '',
  '```js',
  'const x = 1;',
  '',
  'console.log(x);',
  '```',
  '',
  'Setext title',
  '============',
  '',
  '> a quote',
  '',
  'The end.',
].join('\n');

describe('markdown in the terminal, as it arrives', () => {
  it('draws headings, lists, quotes, tables and highlighted code, with no markdown left', () => {
    const { screen } = render([ANSWER]);
    const text = screen.text();
    expect(text).toContain('# Heading');
    expect(text).toContain('A paragraph with emphasis, bold and code,\nover two lines.');
    expect(text).toContain('• one\n• two');
    expect(text).toContain('1. first\n2. second');
    expect(text).toMatch(/┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n│ 3 │ 4 │\n└───┴───┘/);
    expect(text).toContain('  const x = 1;\n\n  console.log(x);');
    expect(text).toContain('Setext title\n════════════');
    expect(text).toContain('│ a quote');
    expect(text).not.toMatch(/```|\*\*|\|---/);
    // Styled: the heading, the bold word, the code span, and the code highlighted (not all one colour).
    const styled = screen.styled();
    expect(styled).toContain('[b,u,f35]# Heading');
    expect(styled).toContain('[b]bold');
    expect(styled).toContain('[f33]code');
    expect(styled).toMatch(/\[f\d+\]const\[\]/);
  });

  it('draws display math as Unicode text in place of its TeX, streamed as printed at once; TeX it cannot read stays as typed', () => {
    const answer = 'Before.\n\n$$\n\\sum_{i=1}^{n} x_i^2 \\leq \\frac{a}{b}\n$$\n\n$$\n\\frac{1}{\n$$\nAfter.';
    const once = render([answer]);
    expect(once.screen.text()).toBe('Before.\n\n  ∑ᵢ₌₁ⁿ xᵢ² ≤ a/b\n\n  \\frac{1}{\nAfter.');
    expect(once.screen.styled()).toContain('[f36]∑ᵢ₌₁ⁿ xᵢ² ≤ a/b');
    // While its line is typed the TeX shows; once the line ends, the text replaces it.
    const typed = new VirtualTerminal(80, 24);
    new LiveMarkdown(tools, { columns: 80, rows: 24 }, (b) => typed.write(b)).push('Before.\n\n$$\n\\sum_{i=1}^{n} x_i^2');
    expect(typed.text()).toBe('Before.\n\n  \\sum_{i=1}^{n} x_i^2');
    for (const sizes of [[1], [2, 5], [7, 3, 1]]) expect(render(cut(answer, sizes)).screen.styled()).toBe(once.screen.styled());
  });

  it('draws an environment across lines (aligned, a matrix) once its math closes, streamed as printed at once', () => {
    const answer = 'So:\n\n$$\n\\begin{aligned}\na &= b + c \\\\\nd &= -e\n\\end{aligned}\n$$\n\n$$\nA = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}\n$$\nDone.';
    const once = render([answer]);
    expect(once.screen.text()).toBe('So:\n\n  a = b + c\n  d = −e\n\n  A = ⎛ 1  2 ⎞\n      ⎝ 3  4 ⎠\nDone.');
    // Until the math closes, the environment's lines show as typed.
    const typed = new VirtualTerminal(80, 24);
    new LiveMarkdown(tools, { columns: 80, rows: 24 }, (b) => typed.write(b)).push('$$\n\\begin{aligned}\na &= b\n');
    expect(typed.text()).toBe('  \\begin{aligned}\n  a &= b');
    sameCutAnywhere(answer);
    // Taller than the window can redraw: left as typed.
    const tall = `$$\n\\begin{aligned}\n${'x &= 1 \\\\\n'.repeat(30)}\\end{aligned}\n$$`;
    expect(render([tall]).screen.text()).toContain('x &= 1 \\\\');
  });

  it('draws inline math as the page reads it (Pandoc\'s rule: prices are not math), streamed as printed at once', () => {
    const answer = 'Here $x^2 + y_i$ and $$E = mc^2$$, \\$3, `$x$`, $\\frac{1}{$ stays, so does $5 alone.\n\n$$ \\alpha \\le 2 $$\n\nIt costs $5 and $10 now; $$a$ b$ and $\\bad$ b $c$.';
    const once = render([answer]);
    expect(once.screen.text()).toBe('Here x² + yᵢ and E = mc², $3, $x$, $\\frac{1}{$ stays, so does $5 alone.\n\nα ≤ 2\n\nIt costs $5 and $10 now; $$a$ b$ and $\\bad$ b c.');
    expect(once.screen.styled()).toContain('[f36]x² + yᵢ[] and [f36]E = mc²[]');
    sameCutAnywhere(answer);
  });

  it('prints prices as typed, and math by the same rule as the page', () => {
    const answer = 'From $5-$10, between $1,000 and $2,000; a $ b $ c; `$5 and $10`; $2x+1$ and $\\alpha$.';
    expect(render([answer]).screen.text()).toBe('From $5-$10, between $1,000 and $2,000; a $ b $ c; $5 and $10; 2x + 1 and α.');
    sameCutAnywhere(answer);
  });

  it("shows a paragraph's words as they arrive, and renders a styled word in place once it closes", () => {
    const screen = new VirtualTerminal(80, 24);
    const live = new LiveMarkdown(tools, { columns: 80, rows: 24 }, (b) => screen.write(b));
    live.push('The first words of a long par');
    expect(screen.text()).toBe('The first words of a long par');
    live.push('agraph, and **bol');
    expect(screen.text()).toBe('The first words of a long paragraph, and **bol');
    live.push('d** then more');
    expect(screen.text()).toBe('The first words of a long paragraph, and bold then more');
    expect(screen.styled()).toContain('[b]bold[] then more');
    live.push('.\nA second line');
    live.end();
    expect(screen.text()).toBe('The first words of a long paragraph, and bold then more.\nA second line');
    // Only the line being written was ever gone back to.
    expect(screen.ups.every((u) => u.to >= u.lastLineFeed)).toBe(true);
  });

  it('shows a table row by row as typed, and draws the table once it ends', () => {
    const screen = new VirtualTerminal(80, 24);
    const live = new LiveMarkdown(tools, { columns: 80, rows: 24 }, (b) => screen.write(b));
    live.push('Before.\n\n| name | value |\n|---|---|\n| first | 1 |\n| sec');
    expect(screen.text()).toBe('Before.\n\n| name | value |\n|---|---|\n| first | 1 |\n| sec');
    live.push('ond | 2 |\n\nAfter.');
    live.end();
    expect(screen.text()).toBe(
      ['Before.', '', '┌────────┬───────┐', '│ name   │ value │', '├────────┼───────┤', '│ first  │ 1     │', '│ second │ 2     │', '└────────┴───────┘', '', 'After.'].join('\n'),
    );
    // What came before the table was never gone back to.
    expect(Math.min(...screen.ups.map((u) => u.to))).toBeGreaterThanOrEqual(2);
  });

  it('keeps table columns aligned with CJK, emoji and right-to-left text, wrapping cells to fit the window', () => {
    const table = ['| Name | 名前 | Emoji | Notes |', '|:--|:-:|--:|---|', '| Alice | 愛麗絲 | 😀 | likes tables |', '| Bob | ボブ | 👍🎉 | שָׁלוֹם and مرحبا |', `| Carol | 김철수 | ⭐ | ${'a long note that wraps '.repeat(4)}|`].join('\n');
    for (const columns of [80, 120, 40]) {
      const { screen } = render(cut(table, [3, 1, 7]), columns);
      const lines = tableLines(screen.text());
      expect(lines.length).toBeGreaterThan(6);
      expect(new Set(lines.map(borderColumns)).size, screen.text()).toBe(1);
      expect(Math.max(...lines.map(textWidth))).toBeLessThanOrEqual(columns);
    }
  });

  it('draws a table taller than the window with the widths of the rows on it, and the later rows under them', () => {
    const rows = ['| # | square |', '|---|---|', ...Array.from({ length: 40 }, (_, i) => `| ${i} | ${i ** 4} |`)].join('\n');
    const streamed = render(cut(`Squares:\n\n${rows}\n\nDone.`, [5]), 80, 12);
    const text = streamed.screen.text();
    expect(text).not.toMatch(/^\|/m);
    // The later rows follow the widths drawn, which left them room: 39⁴ fits.
    expect(text).toMatch(/│ 39 +│ 2313441 +│/);
    expect(new Set(tableLines(text).map(borderColumns)).size).toBe(1);
    expect(streamed.screen.clamped).toBe(0);
    expect(streamed.screen.styled()).toBe(render([`Squares:\n\n${rows}\n\nDone.`], 80, 12).screen.styled());
  });

  it('leaves a code line too tall to redraw as typed, and keeps within the window', () => {
    const code = `\`\`\`js\nconst short = 1;\nconst long = [${'1, '.repeat(200)}];\n\`\`\`\n`;
    const streamed = render(cut(code, [4]), 40, 8);
    expect(streamed.screen.clamped).toBe(0);
    expect(streamed.screen.styled()).toContain('[f33]const long');
    expect(streamed.screen.styled()).toBe(render([code], 40, 8).screen.styled());
  });

  it('keeps escape sequences and control characters in an answer from reaching the terminal', () => {
    // The screen throws on any sequence the renderer does not send itself.
    const { screen } = render(['Title \u001b]0;pwned\u0007 and \u001b[2J\u009b31m red\r\n\u0008back | x\n| a |\n|---|\n| \u001b[5m |\n']);
    expect(screen.text()).toContain('Title ]0;pwned and [2J31m red');
  });

  it('reads CR LF as LF, and a piece ending inside a CR LF or a character', () => {
    const text = '# Tí😀tle\r\n\r\n- one 😀\r\n- two\r\n';
    expect(render(cut(text, [1])).screen.styled()).toBe(render([text.replace(/\r\n/g, '\n')]).screen.styled());
    expect(render(['a\r', '\nb']).screen.text()).toBe('a\nb');
  });

  it('costs in proportion to the answer: 64 KB of code, or one 64 KB paragraph, in 8-byte pieces', () => {
    const code = `\`\`\`js\n${'const value = compute(previous, next);\n'.repeat(1640)}\`\`\`\n\nDone.\n`;
    const paragraph = `${'A word, a **bold** one and `code` in a paragraph that never ends. '.repeat(1000)}\n`;
    for (const text of [code, paragraph]) {
      const started = performance.now();
      const { bytes, screen } = render(text.match(/[^]{1,8}/g)!, 80, 24);
      // Redraws are bounded by the line's end or a segment, never the whole text so far.
      expect(bytes).toBeLessThan(text.length * 4);
      expect(screen.clamped).toBe(0);
      expect(performance.now() - started).toBeLessThan(20_000);
    }
  });
});

// Generated answers: the page's property-test markdown, and what a terminal adds to it — lines
// wider than the window, tall tables, CJK, emoji, right-to-left text, tabs and control characters.
const word = fc.constantFrom('word', 'longerword', '中文字', '😀', '👍🏽', 'é', 'שָׁלוֹם', 'مرحبا', '**b**', '*', '`c`', '[l](u)', 'a_b', '\t', '\u001b[31m', 'x|y', '\\|', '|');
const longLine = fc.array(word, { minLength: 10, maxLength: 120 }).map((w) => w.join(' '));
const row = fc.array(fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 4 }).map((cells) => `| ${cells.join(' | ')} |`);
const table = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.array(row, { maxLength: 25 }))
  .map(([n, rows]) => [`| ${Array.from({ length: n }, (_, i) => `h${i}`).join(' | ')} |`, `|${'---|'.repeat(n)}`, ...rows].join('\n'));
const code = fc
  .tuple(fc.constantFrom('js', 'python', '', 'nosuchlanguage'), fc.array(fc.oneof(longLine, fc.constantFrom('x = 1', '', '  y()')), { maxLength: 4 }))
  .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``);
const block = fc.oneof(markdownDocument(4), longLine, table, code, longLine.map((l) => `# ${l}`), longLine.map((l) => `- ${l}`), longLine.map((l) => `> ${l}`));
const answer = fc.tuple(fc.array(block, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n\n', '\n', '\r\n')).map(([blocks, gap]) => blocks.join('\n\n').replace(/\n/g, gap));
const pieces = fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 30 });

describe('a streamed answer, property-tested', () => {
  // Bounded by count (a few hundred renders), with room for a loaded two-core machine.
  for (const columns of [80, 120]) {
    it(`leaves the screen the answer printed at once leaves, whatever its pieces, at ${columns} columns`, () => {
      fc.assert(
        fc.property(answer, pieces, fc.constantFrom(24, 8), (text, sizes, rows) => {
          const once = render([text], columns, rows);
          const streamed = render(cut(text, sizes), columns, rows);
          expect(streamed.screen.styled()).toBe(once.screen.styled());
          expect(streamed.screen.cursor()).toEqual(once.screen.cursor());
          // Nothing was gone back to out of the window's reach...
          expect(streamed.screen.clamped).toBe(0);
          // ...nor above the line being written, where no line could start a table.
          if (!/^[ \t]*\|/m.test(text)) expect(streamed.screen.ups.filter((u) => u.to < u.lastLineFeed)).toEqual([]);
        }),
        { numRuns: 120 },
      );
    }, 120_000);
  }
});

describe('a streamed answer cut at every position', () => {
  // Issue 40: every place a delta can end, one at a time (the answer in two pieces, cut there),
  // leaves the screen the answer printed at once leaves. Bounded by count and by length (each
  // answer costs a render per character): 10-20 s each on a loaded two-core machine.
  for (const columns of [80, 120]) {
    it(`leaves the screen the answer printed at once leaves, at ${columns} columns`, () => {
      fc.assert(
        fc.property(
          answer.map((text) => text.slice(0, 500)),
          fc.constantFrom(24, 8),
          (text, rows) => {
            const once = render([text], columns, rows);
            for (let at = 1; at < text.length; at++) {
              const streamed = render([text.slice(0, at), text.slice(at)], columns, rows);
              expect(streamed.screen.styled(), `cut at ${at}`).toBe(once.screen.styled());
              expect(streamed.screen.cursor(), `cut at ${at}`).toEqual(once.screen.cursor());
              expect(streamed.screen.clamped).toBe(0);
            }
          },
        ),
        { numRuns: 10 },
      );
    }, 120_000);
  }
});

describe('the answer sink', () => {
  const terminal = (env: NodeJS.ProcessEnv, isTTY = true) => {
    let out = '';
    const stream = { isTTY, columns: 80, rows: 24, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    return { term: { out: stream, err: stream, env }, out: () => out };
  };
  const info = { model: 'm', session: 1, text: 'x' };

  it('prints the text as it comes where the terminal cannot redraw: TERM=dumb, NO_COLOR, a pipe', async () => {
    for (const [env, tty] of [[{ TERM: 'dumb' }, true], [{ NO_COLOR: '1' }, true], [{}, false]] as const) {
      const t = terminal(env, tty);
      const sink = answerSink(t.term, { json: false });
      sink.write('# Title\n\nSome **bold');
      expect(t.out()).toBe('# Title\n\nSome **bold');
      sink.write('** text');
      await sink.end({ ...info, text: '# Title\n\nSome **bold** text' });
      expect(t.out()).toBe('# Title\n\nSome **bold** text\n');
    }
  });

  it(`writes a piece after a quiet ${WRITE_MS} ms at once, the pieces after it in one write ${WRITE_MS} ms later, and all of it by the end`, async () => {
    const writes: { at: number; bytes: string }[] = [];
    const stream = { isTTY: true, columns: 80, rows: 24, write: (s: string) => (writes.push({ at: performance.now(), bytes: s }), true) } as unknown as NodeJS.WriteStream;
    const sink = answerSink({ out: stream, err: stream, env: { TERM: 'xterm-256color' } }, { json: false });
    // Loaded before the question is sent (chat.ts): then the first piece is written as it comes.
    await sink.prepare!();
    sink.write('# Title\n\n');
    expect(writes.length).toBe(1);
    await new Promise((r) => setTimeout(r, WRITE_MS + 2));
    const pieces = 'A paragraph in many small pieces, | a | table | row |\n- and a list item'.match(/[^]{1,3}/g)!;
    for (const piece of pieces) sink.write(piece);
    // After a quiet WRITE_MS the first piece went at once; the others wait for the timer.
    expect(writes.length).toBe(2);
    expect(writes[1]!.bytes).toContain('A p');
    await vi.waitFor(() => expect(writes.length).toBe(3), { timeout: 1000, interval: 1 });
    // One write for all the other pieces, when the timer fires (a loaded machine fires it late, never early).
    expect(writes[2]!.at - writes[1]!.at).toBeGreaterThanOrEqual(WRITE_MS - 1);
    expect(writes[2]!.bytes).toContain('in many small pieces');
    await sink.end({ model: 'm', session: 1, text: '' });
    const screen = new VirtualTerminal(80, 24);
    screen.write(writes.map((w) => w.bytes).join(''));
    expect(screen.text()).toBe('# Title\n\nA paragraph in many small pieces, | a | table | row |\n• and a list item');
  });

  it('renders on a terminal, and says nothing on the console of a language it cannot highlight', async () => {
    const t = terminal({ TERM: 'xterm-256color' });
    const sink = answerSink(t.term, { json: false });
    const complaints = vi.spyOn(console, 'error');
    sink.write('Some **bold** text.\n\n```nosuchlanguage\nplain code\n```\n');
    await sink.end(info);
    expect(complaints).not.toHaveBeenCalled();
    complaints.mockRestore();
    const screen = new VirtualTerminal(80, 24);
    screen.write(t.out());
    expect(screen.text()).toBe('Some bold text.\n\n  plain code');
  });
});
