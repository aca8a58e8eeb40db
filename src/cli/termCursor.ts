// Where the terminal's cursor is after what the renderer wrote, so that the part of a line that
// may still change can be erased and written again: rows count from the answer's first, the
// column as the terminal wraps (a full row leaves the cursor on its last column until the next
// character, which starts the next row; a wide character that does not fit starts it too).
import { codeWidth, runsText, type Run } from './termText.ts';

export interface Pos {
  row: number;
  col: number;
}

const ASCII = /^[\x20-\x7e]*$/;
const SGR = /\u001b\[[0-9;]*m/g;

export class TermCursor {
  row = 0;
  col = 0;
  private out = '';

  readonly columns: number;

  constructor(columns: number) {
    this.columns = columns;
  }

  pos = (): Pos => ({ row: this.row, col: this.col });

  /** Text (SGR styles allowed, no line ends) written at the cursor. */
  write(text: string): void {
    if (!text) return;
    this.out += text;
    const to = this.after(this.pos(), text.includes('\u001b') ? text.replace(SGR, '') : text);
    this.row = to.row;
    this.col = to.col;
  }

  runs = (runs: readonly Run[]) => this.write(runsText(runs));

  newline(): void {
    this.out += '\n';
    this.row++;
    this.col = 0;
  }

  /** Where printable `text` written from `from` leaves the cursor. */
  after(from: Pos, text: string): Pos {
    const { columns } = this;
    let { row, col } = from;
    if (ASCII.test(text)) {
      const n = text.length;
      if (col + n <= columns) return { row, col: col + n };
      const rest = n - (columns - col);
      const rows = Math.ceil(rest / columns);
      return { row: row + rows, col: rest - (rows - 1) * columns };
    }
    let joined = false;
    for (const ch of text) {
      const w = codeWidth(ch, joined);
      joined = ch === '\u200d';
      if (w === 0) continue;
      if (col + w > columns) {
        row++;
        col = 0;
      }
      col += w;
    }
    return { row, col };
  }

  /** Moves back to `to` and erases everything written from there on. */
  back(to: Pos): void {
    let { row, col } = to;
    // A full row: what follows starts the next one.
    if (col >= this.columns) {
      row++;
      col = 0;
    }
    if (row > this.row || (row === this.row && col >= this.col)) return;
    // The row is erased from `col` on, then the rows below it. Not one erase to the end of the
    // screen: from its top-left corner, tmux would keep a copy of the screen in its scrollback.
    const forward = col ? `\u001b[${col}C` : '';
    const up = this.row - row;
    this.out += `\r${up ? `\u001b[${up}A` : ''}${forward}\u001b[K${up ? `\u001b[B\r\u001b[J\u001b[A${forward}` : ''}`;
    this.row = row;
    this.col = col;
  }

  /** What was written since the last take. */
  take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }
}
