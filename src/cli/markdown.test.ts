// The terminal's markdown, streamed block by block: whatever the chunks, what is printed is the
// same as printing the whole answer at once, each block once (nothing reprinted), and the cost
// of a long block stays bounded.
import { describe, expect, it } from 'vitest';
import { blockStream, terminalMarked } from './markdown.ts';

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
  '',
  '2. second (a loose list)',
  '',
  '| a | b |',
  '|---|---|',
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

const marked = await terminalMarked(80);

function streamed(chunks: string[]): { out: string; writes: string[] } {
  const writes: string[] = [];
  const s = blockStream(marked, (text) => writes.push(text));
  for (const c of chunks) s.push(c);
  s.end();
  return { out: writes.join(''), writes };
}

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('markdown in the terminal, block by block', () => {
  const whole = streamed([ANSWER]);

  it('renders headings, lists, tables and code for a TTY', () => {
    expect(whole.out).toContain('\u001b[');
    expect(plain(whole.out)).toContain('# Heading');
    expect(plain(whole.out)).toMatch(/│ 1 +│ 2 +│/);
    expect(plain(whole.out)).toContain('const x = 1;');
    expect(plain(whole.out)).not.toContain('```');
    expect(plain(whole.out)).not.toContain('|---|');
    // Streamed line by line, each block is printed as the next one starts.
    const lines = streamed(`${ANSWER}\n`.split(/(?<=\n)/));
    expect(lines.writes).toHaveLength(marked.lexer(ANSWER).filter((t) => t.type !== 'space').length);
    expect(plain(lines.writes[0]!)).toBe('# Heading\n\n');
  });

  it('prints the same, each block once, wherever the stream is cut', () => {
    for (let cut = 1; cut < ANSWER.length; cut++) {
      expect(streamed([ANSWER.slice(0, cut), ANSWER.slice(cut)]).out, `cut at ${cut}`).toBe(whole.out);
    }
    // Token-sized pieces, as a provider streams them (a fixed seed, so a failure repeats).
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    for (let run = 0; run < 50; run++) {
      const chunks: string[] = [];
      for (let i = 0; i < ANSWER.length; ) {
        const n = 1 + Math.floor(random() * 12);
        chunks.push(ANSWER.slice(i, i + n));
        i += n;
      }
      expect(streamed(chunks).out).toBe(whole.out);
    }
  });

  it('reads CR LF answers as LF ones', () => {
    expect(streamed(ANSWER.replace(/\n/g, '\r\n').match(/[^]{1,5}/g)!).out).toBe(whole.out);
  });

  it('keeps a long block cheap: 64 KB of code in 8-byte pieces', () => {
    const code = `\`\`\`js\n${'const value = compute(previous, next);\n'.repeat(1640)}\`\`\`\n\nDone.\n`;
    const started = performance.now();
    const { writes } = streamed(code.match(/[^]{1,8}/g)!);
    const elapsed = performance.now() - started;
    expect(writes).toHaveLength(2);
    expect(elapsed).toBeLessThan(1000);
  });
});
