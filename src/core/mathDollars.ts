// Which dollars are TeX math, by Pandoc's `tex_math_dollars` rule, for every surface (the
// page's markdown pipeline and the terminal client): an opening `$` has a non-space character
// right after it; a closing `$` has a non-space character right before it and no digit right
// after it. So "It costs $5 and $10." is text and "$x$ and $y$" is two formulas.

const SPACE = /\s/;
const DIGIT = /[0-9]/;
const isSpace = (ch: string | undefined) => ch === undefined || SPACE.test(ch);

/** Where the line holding `from` ends. Math and code spans are read within a line: a block
 *  can then be read alone as in its document (the page renders a streamed answer by blocks). */
export function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/**
 * The math span opened by the single `$` at `at` (not a `$$` run, not escaped): the index just
 * past its closing `$`, or -1 when that dollar is plain text. Looks no further than `end`.
 */
export function singleMathEnd(text: string, at: number, end = lineEnd(text, at)): number {
  if (!opensMath(text, at)) return -1;
  for (let k = at + 1; k < end; k++) {
    const ch = text[k];
    if (ch === '\\') k++;
    else if (ch === '$') {
      // A `$$` run closes no single dollar (as in remark-math): it is part of the formula.
      if (text[k + 1] === '$') while (text[k + 1] === '$') k++;
      else if (!isSpace(text[k - 1]) && !DIGIT.test(text[k + 1] ?? '')) return k + 1;
    }
  }
  return -1;
}

/** Whether the single `$` at `at` may open math. When it may and finds no closer, no later
 *  dollar on its line can find one either. */
export const opensMath = (text: string, at: number): boolean => !isSpace(text[at + 1]) && text[at + 1] !== '$';

/** The run of dollars at `at` and, when it is two or more, where the same run closes it. */
function displayMathEnd(text: string, at: number, run: number): number {
  const close = '$'.repeat(run);
  const line = text.slice(0, lineEnd(text, at));
  for (let k = line.indexOf(close, at + run); k !== -1; k = line.indexOf(close, k + 1)) {
    let n = 0;
    while (line[k + n] === '$') n++;
    if (n === run && line[k - 1] !== '$') return k + run;
    k += n - 1;
  }
  return -1;
}

export const dollarRun = (text: string, at: number): number => {
  let n = 0;
  while (text[at + n] === '$') n++;
  return n;
};

/** Where the math starting at `at` (a `$` or `$$`) ends, or -1 when it is plain text. */
export function mathEnd(text: string, at: number): number {
  const run = dollarRun(text, at);
  return run === 1 ? singleMathEnd(text, at) : displayMathEnd(text, at, run);
}

/**
 * Inline markdown text with a backslash before every single `$` that is not math by the rule,
 * so that a parser pairing dollars more loosely (remark-math) sees only the rule's formulas.
 * Code spans and `$$` runs are left as they are. Linear: once a dollar finds no closer before
 * the line's end, the dollars up to there cannot either.
 */
export function escapeTextDollars(text: string): string {
  let out = '';
  let copied = 0;
  let failedUntil = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '`') {
      let n = 1;
      while (text[i + n] === '`') n++;
      const close = codeSpanEnd(text, i, n);
      i = (close === -1 ? i + n : close) - 1;
    } else if (ch === '$') {
      const run = dollarRun(text, i);
      if (run > 1) {
        // Display math is kept whole; an unclosed run is text to remark-math as well.
        const close = displayMathEnd(text, i, run);
        i = (close === -1 ? i + run : close) - 1;
        continue;
      }
      const close = i < failedUntil ? -1 : singleMathEnd(text, i);
      if (close === -1) {
        if (i >= failedUntil && opensMath(text, i)) failedUntil = lineEnd(text, i);
        out += text.slice(copied, i) + '\\$';
        copied = i + 1;
        continue;
      }
      // Dollars inside the formula that could not close it are literal dollars in TeX too.
      out += text.slice(copied, i + 1) + text.slice(i + 1, close - 1).replace(/(^|[^\\])\$/g, '$1\\$') + '$';
      copied = close;
      i = close - 1;
    }
  }
  return out + text.slice(copied);
}

function codeSpanEnd(text: string, at: number, run: number): number {
  const ticks = '`'.repeat(run);
  const line = text.slice(0, lineEnd(text, at));
  for (let k = line.indexOf(ticks, at + run); k !== -1; k = line.indexOf(ticks, k + 1)) {
    let n = 0;
    while (line[k + n] === '`') n++;
    if (n === run && line[k - 1] !== '`') return k + run;
    k += n - 1;
  }
  return -1;
}
