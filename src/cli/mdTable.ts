// A markdown table drawn for the terminal: cells split as GFM does (at unescaped pipes), column
// widths measured in terminal columns (so CJK and emoji keep the borders aligned), cells wrapped
// within their column when the table is wider than the window, box-drawing borders.
import { RESET, runsText, runsWidth, sgr, wrapRuns, type Run } from './termText.ts';

export type Align = 'left' | 'center' | 'right';

const BORDER = sgr(90);

/** A row's cells: the text between unescaped pipes, without the outer ones. */
export function splitCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** What a delimiter row may still become while it is typed. */
export const delimiterSoFar = (line: string) => /^[ \t|:-]*$/.test(line);

/** The columns' alignment when `line` is the delimiter row of a header of `count` cells. */
export function delimiterAligns(line: string, count: number): Align[] | undefined {
  if (!/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/.test(line)) return undefined;
  const cells = splitCells(line);
  if (cells.length !== count) return undefined;
  return cells.map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : 'left'));
}

/**
 * Column widths for rows of cells, shrunk (widest first) until the table fits `columns`. With
 * `more` rows to come, unseen, each column gets room to grow (up to twice its width and four),
 * as far as the window allows, so that later rows seldom wrap.
 */
export function columnWidths(rows: readonly Run[][][], count: number, columns: number, more = false): number[] {
  const room = columns - 3 * count - 1;
  let natural = Array.from({ length: count }, (_, i) => Math.max(1, ...rows.map((r) => (r[i] ? runsWidth(r[i]) : 0))));
  const total = natural.reduce((n, w) => n + w, 0);
  if (more && total < room) {
    const share = Math.floor((room - total) / count);
    natural = natural.map((w) => w + Math.min(share, w + 4));
  }
  const sum = (cap: number) => natural.reduce((n, w) => n + Math.min(w, cap), 0);
  if (sum(Infinity) <= room) return natural;
  if (room < count) return natural.map(() => 1);
  let lo = 1;
  let hi = Math.max(...natural);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sum(mid) <= room) lo = mid;
    else hi = mid - 1;
  }
  let spare = room - sum(lo);
  return natural.map((w) => (w > lo && spare-- > 0 ? lo + 1 : Math.min(w, lo)));
}

export class TableDrawing {
  readonly widths: readonly number[];
  private readonly aligns: readonly Align[];

  constructor(widths: readonly number[], aligns: readonly Align[]) {
    this.widths = widths;
    this.aligns = aligns;
  }

  private rule(left: string, middle: string, right: string): string {
    return `${BORDER}${left}${this.widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}${RESET}`;
  }

  top = () => this.rule('┌', '┬', '┐');
  separator = () => this.rule('├', '┼', '┤');
  bottom = () => this.rule('└', '┴', '┘');

  /** A row as lines: each cell wrapped within its column, the row as tall as its tallest cell. */
  row(cells: readonly Run[][]): string[] {
    const wrapped = this.widths.map((w, i) => wrapRuns(cells[i] ?? [], w));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    const bar = `${BORDER}│${RESET}`;
    const lines: string[] = [];
    for (let l = 0; l < height; l++) {
      let line = bar;
      this.widths.forEach((width, i) => {
        const runs = wrapped[i]![l] ?? [];
        const gap = Math.max(0, width - runsWidth(runs));
        const align = this.aligns[i] ?? 'left';
        const before = align === 'right' ? gap : align === 'center' ? gap >> 1 : 0;
        line += ` ${' '.repeat(before)}${runsText(runs)}${' '.repeat(gap - before)} ${bar}`;
      });
      lines.push(line);
    }
    return lines;
  }
}
