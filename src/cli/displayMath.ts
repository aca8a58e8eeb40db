// Display math ($$ fences) drawn for the terminal (markdown.ts): a line KaTeX reads alone is
// drawn when it ends (one line, or a grid's lines); lines that cannot be read alone (an
// aligned, cases or matrix environment's) show as typed and are drawn together once the math
// closes, if KaTeX reads them and they are all still on the window to be redrawn.
import type { Pos, TermCursor } from './termCursor.ts';
import { sanitize, sgr } from './termText.ts';

const MATH = sgr(36);

export class DisplayMath {
  /** The math so far: where its first line's text starts, its lines, whether each was drawn alone. */
  private block: { from: Pos; tex: string[]; alone: boolean } | undefined;

  private readonly cur: TermCursor;
  /** The most rows a redrawn part may span. */
  private readonly live: number;
  private readonly math: () => ((tex: string) => string | undefined) | undefined;

  constructor(cur: TermCursor, live: number, math: () => ((tex: string) => string | undefined) | undefined) {
    this.cur = cur;
    this.live = live;
    this.math = math;
  }

  /** A line of the math ended, its text shown from `from`: drawn, or false when it cannot be read alone (left for the caller to show as typed). */
  line(from: Pos, code: string, fits: boolean): boolean {
    const shown = fits ? this.math()?.(code.trim()) : undefined;
    this.block ??= { from, tex: [], alone: true };
    this.block.tex.push(code);
    this.block.alone &&= !!shown || !code.trim();
    if (shown) this.draw(from, shown);
    return !!shown;
  }

  /** The math closed (its closing fence erased). */
  close(): void {
    const block = this.block;
    this.block = undefined;
    if (!block || block.alone || this.cur.row - block.from.row + 1 > this.live) return;
    const shown = this.math()?.(block.tex.join('\n').trim());
    if (shown) this.draw(block.from, shown);
  }

  /** `text` (lines) in place of what shows from `from` on, each line from its column. */
  private draw(from: Pos, text: string): void {
    this.cur.back(from);
    const indent = ' '.repeat(from.col);
    text.split('\n').forEach((line, i) => {
      this.cur.write(`${i ? indent : ''}${MATH}${sanitize(line)}\u001b[0m`);
      this.cur.newline();
    });
  }
}
