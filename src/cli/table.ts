// A command's table laid out for a terminal of a given width: the columns as wide as their
// widest cell while the rows fit, else the widest column narrowed and its cells wrapped at
// spaces, continued under their own column (so `:help` at 120 columns reads as two columns,
// not as lines the terminal broke anywhere). Wide characters (CJK) count as two columns.
import type { Output } from '../core/host/index.ts';

type TableOutput = Extract<Output, { kind: 'table' }>;
const GAP = 2;
/** No column is narrowed below this (or its heading), whatever the width. */
const MIN_COLUMN = 12;

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** How many terminal columns `text` takes. */
export function cellWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += WIDE.test(ch) ? 2 : 1;
  return width;
}

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - cellWidth(text)));

/** `text` in lines of at most `width` columns, broken at spaces (a longer word is cut). */
export function wrapCell(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      let rest = word;
      if (line && cellWidth(line) + 1 + cellWidth(rest) <= width) {
        line += ` ${rest}`;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      while (cellWidth(rest) > width) {
        let cut = '';
        for (const ch of rest) {
          if (cellWidth(cut + ch) > width) break;
          cut += ch;
        }
        lines.push(cut);
        rest = rest.slice(cut.length);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** The widths that fit `width`: the widest column narrowed first, none below its floor. */
function fitWidths(natural: number[], floors: number[], width: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  while (total() > width) {
    let widest = -1;
    for (let c = 0; c < widths.length; c++) if (widths[c]! > floors[c]! && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
    if (widest < 0) break;
    widths[widest]! -= 1;
  }
  return widths;
}

export function tableText(table: TableOutput, width: number): string {
  const rows = [table.columns, ...table.rows];
  const natural = table.columns.map((_, c) => Math.max(...rows.map((r) => cellWidth(r[c] ?? ''))));
  const floors = table.columns.map((heading, c) => Math.min(natural[c]!, Math.max(MIN_COLUMN, cellWidth(heading))));
  const widths = fitWidths(natural, floors, width);
  const lines = table.title ? [table.title] : [];
  for (const row of rows) {
    const cells = widths.map((w, c) => wrapCell(row[c] ?? '', w));
    const height = Math.max(...cells.map((cell) => cell.length));
    for (let i = 0; i < height; i++) lines.push(cells.map((cell, c) => pad(cell[i] ?? '', widths[c]!)).join(' '.repeat(GAP)).trimEnd());
  }
  return lines.join('\n');
}
