import { describe, expect, it } from 'vitest';
import { escapeTextDollars, mathEnd } from './mathDollars.ts';

/** The formulas the rule finds, in order (as typed, dollars included). */
function maths(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '$') {
      const end = mathEnd(text, i);
      if (end !== -1) found.push(text.slice(i, end));
      while (text[i + 1] === '$' && end === -1) i++;
      if (end !== -1) i = end - 1;
    }
  }
  return found;
}

describe("dollars as math (Pandoc's tex_math_dollars)", () => {
  it.each([
    ['It costs $5 and $10.', []],
    ['$2x+1$', ['$2x+1$']],
    ['$x$ and $y$', ['$x$', '$y$']],
    ['costs $5.', []],
    ['\\$x$', []],
    ['$5-$10', []],
    ['between $1,000 and $2,000', []],
    ['$\\alpha$', ['$\\alpha$']],
    ['a $ b $ c', []],
    ['$$\\frac{1}{2}$$ and $$x$$', ['$$\\frac{1}{2}$$', '$$x$$']],
    ['$x$5 each', []],
    ['$a\nb$', []],
    ['$ a $b$ then $a $$ b$', ['$b$', '$a $$ b$']],
  ])('%j', (text, expected) => {
    expect(maths(text)).toEqual(expected);
  });

  it('escapes the dollars that are not math, and leaves formulas, code spans and escapes as written', () => {
    expect(escapeTextDollars('It costs $5 and $10.')).toBe('It costs \\$5 and \\$10.');
    expect(escapeTextDollars('$5-$10, $1,000 and $2,000')).toBe('\\$5-\\$10, \\$1,000 and \\$2,000');
    expect(escapeTextDollars('$x$ and $y$, $\\alpha$, \\$3')).toBe('$x$ and $y$, $\\alpha$, \\$3');
    expect(escapeTextDollars('a $ b $ c')).toBe('a \\$ b \\$ c');
    expect(escapeTextDollars('run `echo $HOME $PATH` for $5 and ``a $b` $c``')).toBe('run `echo $HOME $PATH` for \\$5 and ``a $b` $c``');
    expect(escapeTextDollars('$$a $5$$ then $x $y$')).toBe('$$a $5$$ then $x \\$y$');
    expect(escapeTextDollars('no dollars')).toBe('no dollars');
    expect(escapeTextDollars('$ a $b$ and $c')).toBe('\\$ a $b$ and \\$c');
  });

  it('takes linear time on dollars that never close', () => {
    const text = '$a '.repeat(100_000);
    const started = performance.now();
    expect(escapeTextDollars(text)).toBe('\\$a '.repeat(100_000));
    // Quadratic would be 10^10 steps (minutes); linear is milliseconds. Generous for slow CI.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
