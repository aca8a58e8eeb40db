// A markdown table in an answer rendered as it arrives (markdown.ts): its rows show as typed
// until it is drawn (the columns' widths are not known before), then drawn in their place, once
// it ends or no longer fits the window; rows after that follow the widths drawn. A line that
// looked like a header but has no delimiter row under it shows as text after all.
import type { Token } from 'marked';
import { inlineRuns, type SegmentCuts } from './inline.ts';
import { columnWidths, delimiterAligns, splitCells, TableDrawing, type Align } from './mdTable.ts';
import type { Pos, TermCursor } from './termCursor.ts';
import { sgr, type Run } from './termText.ts';

const HEADER = sgr(1);

/** What the table needs of the renderer that writes it. */
export interface TableHost {
  readonly cur: TermCursor;
  lex(text: string): Token[];
  /** Fresh cuts of a text line into segments, as the renderer's. */
  cuts(): SegmentCuts;
  /** Whatever of the line being written shows, gone. */
  erase(): void;
  /** The line being written shows again from the cursor (what showed of it was erased). */
  restart(): void;
}

interface Rows {
  start: Pos;
  header: string;
  /** Known once the delimiter row has ended. */
  aligns?: Align[];
  /** Rows shown as typed until the table is drawn. */
  rows: string[];
  /** Once drawn, the widths later rows follow. */
  drawing?: TableDrawing;
}

export class LiveTable {
  private table: Rows | undefined;
  private readonly host: TableHost;

  constructor(host: TableHost) {
    this.host = host;
  }

  get open(): boolean {
    return !!this.table;
  }

  /** Where the table's first line shows. */
  get start(): Pos | undefined {
    return this.table?.start;
  }

  get aligned(): boolean {
    return !!this.table?.aligns;
  }

  get drawn(): boolean {
    return !!this.table?.drawing;
  }

  /** A line that may be a header, shown as typed from `start`. */
  begin(start: Pos, header: string): void {
    this.table = { start, header, rows: [] };
  }

  /** The line under the header: false when it is no delimiter row for it. */
  align(line: string): boolean {
    const table = this.table!;
    table.aligns = delimiterAligns(line, splitCells(table.header).length);
    return !!table.aligns;
  }

  /** A row shown as typed, kept to be drawn. */
  add(line: string): void {
    this.table!.rows.push(line);
  }

  /** A row of the drawn table, as the lines that draw it. */
  drawnRow(line: string): string[] {
    const drawing = this.table!.drawing!;
    return drawing.row(this.cells(line, drawing.widths.length, ''));
  }

  private cells(line: string, count: number, base: string): Run[][] {
    const cells = splitCells(line);
    return Array.from({ length: count }, (_, i) => inlineRuns(cells[i] ?? '', base, this.host.lex));
  }

  /** The table's rows so far drawn in place of the rows as typed; `last` closes it. */
  draw(last: boolean): void {
    const table = this.table!;
    const { cur } = this.host;
    const count = table.aligns!.length;
    const header = this.cells(table.header, count, HEADER);
    const rows = table.rows.map((r) => this.cells(r, count, ''));
    const drawing = new TableDrawing(columnWidths([header, ...rows], count, cur.columns, !last), table.aligns!);
    cur.back(table.start);
    const lines = [drawing.top(), ...drawing.row(header), drawing.separator(), ...rows.flatMap((r) => drawing.row(r))];
    if (last) lines.push(drawing.bottom());
    for (const line of lines) {
      cur.write(line);
      cur.newline();
    }
    table.drawing = drawing;
    table.rows = [];
    this.host.restart();
  }

  /** The header shown as text: there is no table after all. */
  headerAsText(): void {
    const table = this.table!;
    const { cur } = this.host;
    this.table = undefined;
    cur.back(table.start);
    const cuts = this.host.cuts();
    let seg = 0;
    const line = table.header;
    for (let i = 0; i < line.length; i++) {
      if (cuts.feed(line[i]!)) {
        cur.runs(inlineRuns(line.slice(seg, i + 1), '', this.host.lex));
        seg = i + 1;
      }
    }
    if (seg < line.length) cur.runs(inlineRuns(line.slice(seg), '', this.host.lex));
    cur.newline();
    this.host.restart();
  }

  /** The table is over: drawn whole, or its last border under the rows drawn already. */
  close(): void {
    const table = this.table!;
    if (!table.aligns) return this.headerAsText();
    if (!table.drawing) {
      this.draw(true);
      this.table = undefined;
      return;
    }
    this.table = undefined;
    this.host.erase();
    this.host.cur.write(table.drawing.bottom());
    this.host.cur.newline();
    this.host.restart();
  }
}
