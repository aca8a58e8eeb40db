// Tables in display math (aligned, cases, matrices) for the terminal: a grid of lines, each
// column as wide as its widest cell (by terminal width: wide characters count two), brackets
// drawn as tall columns of box-drawing pieces. While a formula is read as one line of text, a
// grid stands in it as a placeholder; joinBlocks lays the line out around its grids.
import { textWidth } from './termText.ts';

export interface Grid {
  lines: string[];
}

/** Private-use characters: BLOCK and one after it for the grid's index (no TeX yields them). */
export const BLOCK = '\ue000';
const INDEX = 0xe100;
const PLACEHOLDER = /\ue000([\ue100-\uf8ff])/g;

const place = (grid: Grid, blocks: Grid[]) => `${BLOCK}${String.fromCharCode(INDEX + blocks.push(grid) - 1)}`;
const pad = (text: string, width: number, align = 'left') => {
  const room = Math.max(0, width - textWidth(text));
  const left = align === 'right' ? room : align === 'center' ? room >> 1 : 0;
  return ' '.repeat(left) + text + ' '.repeat(room - left);
};

/** Rows of cells laid out with each column's alignment (`right`, `left`, `center`), as a placeholder. */
export function grid(rows: string[][], align: string[], gap: string, blocks: Grid[]): string {
  const cells = rows.map((row) => row.map((cell) => joinBlocks(cell, blocks)));
  const columns = Math.max(0, ...cells.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...cells.flatMap((row) => (row[c] ?? []).map(textWidth))));
  const lines = cells.flatMap((row) => {
    // A row's cells centred on one line (`g(x) =` beside the middle of a cases brace).
    const centre = Math.max(0, ...row.map((cell) => (cell.length - 1) >> 1));
    const tops = row.map((cell) => centre - ((cell.length - 1) >> 1));
    const height = Math.max(1, ...row.map((cell, c) => tops[c]! + cell.length));
    return Array.from({ length: height }, (_, i) =>
      widths.map((w, c) => pad(row[c]?.[i - tops[c]!] ?? '', w, align[c] ?? align.at(-1))).join(gap),
    );
  });
  return place({ lines }, blocks);
}

const TALL: Record<string, [string, string, string, string]> = {
  // top, middle rows, bottom, and the centre row of an odd height (a brace's point)
  '(': ['⎛', '⎜', '⎝', '⎜'],
  ')': ['⎞', '⎟', '⎠', '⎟'],
  '[': ['⎡', '⎢', '⎣', '⎢'],
  ']': ['⎤', '⎥', '⎦', '⎥'],
  '{': ['⎧', '⎪', '⎩', '⎨'],
  '}': ['⎫', '⎪', '⎭', '⎬'],
  '|': ['│', '│', '│', '│'],
  '∣': ['│', '│', '│', '│'],
  '‖': ['‖', '‖', '‖', '‖'],
  '∥': ['‖', '‖', '‖', '‖'],
};

/** A fence as a column of `height` rows: box-drawing pieces, or the character on the centre row. */
function column(fence: string, height: number): string[] {
  if (!fence) return [];
  const tall = TALL[fence];
  if (height === 1) return [fence];
  if (fence === '{' && height === 2) return ['⎰', '⎱'];
  if (fence === '}' && height === 2) return ['⎱', '⎰'];
  return Array.from({ length: height }, (_, i) => {
    if (!tall) return i === (height - 1) >> 1 ? fence : ' '.repeat(textWidth(fence));
    if (i === 0) return tall[0];
    if (i === height - 1) return tall[2];
    return height % 2 === 1 && i === (height - 1) >> 1 ? tall[3] : tall[1];
  });
}

/** A grid (a placeholder) between an opening and a closing fence, as a new placeholder. */
export function fenced(open: string, inner: string, close: string, blocks: Grid[]): string {
  const lines = joinBlocks(inner, blocks);
  const left = column(open.trim(), lines.length);
  const right = column(close.trim(), lines.length);
  return place({ lines: lines.map((line, i) => `${left[i] ? `${left[i]} ` : ''}${line}${right[i] ? ` ${right[i]}` : ''}`) }, blocks);
}

/** A line of text with grids in it, as lines: the grids side by side, centred on the text's row. */
export function joinBlocks(line: string, blocks: Grid[]): string[] {
  const parts: (string | string[])[] = [];
  let at = 0;
  for (const m of line.matchAll(PLACEHOLDER)) {
    parts.push(line.slice(at, m.index), blocks[m[1]!.charCodeAt(0) - INDEX]?.lines ?? []);
    at = m.index + m[0].length;
  }
  parts.push(line.slice(at));
  const grids = parts.filter((p) => typeof p !== 'string');
  const centre = Math.max(0, ...grids.map((g) => (g.length - 1) >> 1));
  const height = Math.max(1, ...grids.map((g) => centre - ((g.length - 1) >> 1) + g.length));
  const out = Array.from({ length: height }, () => '');
  for (const part of parts) {
    const rows = typeof part === 'string' ? [part] : part;
    const top = centre - ((rows.length - 1) >> 1);
    const width = Math.max(0, ...rows.map(textWidth));
    for (let r = 0; r < height; r++) out[r] += pad(rows[r - top] ?? '', width);
  }
  return out;
}
