// A streamed answer rendered for a terminal as it arrives (DESIGN §5): text shows as it comes,
// finished lines are never printed again, and only the end of the line being written is redrawn
// (carriage return, cursor up over its wrapped rows, erase) once it is known how it renders:
// - a line of text (paragraph, heading, list item, quote) is cut into segments (inline.ts); the
//   open one shows as typed and is rendered once it closes (`**bold**` loses its asterisks);
// - a code line shows as typed and is highlighted when it ends; fences are not shown;
// - a line of display math ($$ fences) shows as typed and is drawn as Unicode text when it ends;
//   lines that cannot be read alone (an environment's) are drawn together once the math closes;
// - a table's rows show as typed, and the rows typed so far are drawn as a table once it ends,
//   as the columns' widths are not known before (liveTable.ts); a table taller than the window is drawn with
//   the widths of the rows on the window, and later rows follow them as each ends;
// - a line too tall to redraw (more than the window's rows) is left as typed.
// The same answer printed at once goes through the same steps, so it looks the same.
import type { Token } from 'marked';
import { inlineRuns, plainAs, SegmentCuts } from './inline.ts';
import { DisplayMath } from './displayMath.ts';
import { classify, classifyInFence, type LineKind } from './lineKinds.ts';
import { LiveTable } from './liveTable.ts';
import { delimiterSoFar } from './mdTable.ts';
import { TermCursor, type Pos } from './termCursor.ts';
import { sanitize, sgr, type Run } from './termText.ts';

export interface MarkdownTools {
  lex(text: string): Token[];
  /** A line of code highlighted in `lang`, or undefined when the language is not known. */
  highlight?(code: string, lang: string): string | undefined;
  /** A line of display math as text, or undefined when it cannot be read. */
  math?(tex: string): string | undefined;
}

type Text = Extract<LineKind, { kind: 'text' }>;
type Kind = LineKind | { kind: 'code'; content: number } | { kind: 'close' } | { kind: 'typed' };

interface Fence {
  char: string;
  length: number;
  indent: number;
  lang: string;
}

const CODE = sgr(33);
const CODE_INDENT = '  ';

export class LiveMarkdown {
  private readonly cur: TermCursor;
  /** The most rows a redrawn part may span: its first row must still be on the window. */
  private readonly live: number;
  private readonly soft: number;
  private readonly hard: number;
  private readonly cutoff: number;
  private readonly cuts: SegmentCuts;
  private readonly display: DisplayMath;
  private held = '';
  private blanks = 0;
  private afterParagraph = false;
  private fence: Fence | undefined;
  private readonly table: LiveTable;
  // The line being written: its text, its kind once known, where it shows, how much of it is
  // final (`commit`, up to `seg` in the text), scanned for cuts, and shown as typed.
  private line = '';
  private kind: Kind | undefined;
  private started = false;
  private start: Pos = { row: 0, col: 0 };
  private commit: Pos = { row: 0, col: 0 };
  private seg = 0;
  private scanned = 0;
  private shown = 0;

  private readonly tools: MarkdownTools;
  private readonly output: (bytes: string) => void;

  constructor(tools: MarkdownTools, size: { columns: number; rows: number }, output: (bytes: string) => void) {
    this.tools = tools;
    this.output = output;
    const columns = Math.max(8, size.columns);
    this.cur = new TermCursor(columns);
    this.live = Math.max(4, size.rows - 1);
    // A segment shown as typed, even of wide characters from the middle of a row, fits the window.
    this.hard = Math.max(16, Math.floor(((this.live - 2) * columns) / 2));
    this.soft = this.hard >> 1;
    this.cutoff = Math.min(200, this.soft);
    this.cuts = new SegmentCuts(this.soft, this.hard);
    this.display = new DisplayMath(this.cur, this.live, () => this.tools.math);
    this.table = new LiveTable({
      cur: this.cur,
      lex: (text) => this.tools.lex(text),
      cuts: () => new SegmentCuts(this.soft, this.hard),
      erase: () => this.erase(),
      restart: () => this.restart(),
    });
  }

  push(delta: string): void {
    // A CR may be half of a CR LF, a high surrogate half of a character: kept for the next piece.
    let text = this.held + delta;
    this.held = /(\r|[\ud800-\udbff])$/.test(text) ? text.slice(-1) : '';
    if (this.held) text = text.slice(0, -1);
    text = text.replace(/\r\n?/g, '\n');
    for (let at = 0; ; ) {
      const end = text.indexOf('\n', at);
      this.grow(end < 0 ? text.slice(at) : text.slice(at, end));
      if (end < 0) break;
      this.finish();
      at = end + 1;
    }
    this.showTyped();
    this.flush();
  }

  /** The answer ended: its last line is finished, an open table drawn. */
  end(): void {
    const held = this.held;
    this.held = '';
    if (held) this.push(held === '\r' ? '\n' : '\ufffd');
    if (this.line || this.kind) this.finish();
    if (this.table.open) this.table.close();
    this.flush();
  }

  private flush(): void {
    const bytes = this.cur.take();
    if (bytes) this.output(bytes);
  }

  private grow(piece: string): void {
    this.line += piece;
    if (!this.kind) this.decide(false);
    const kind = this.kind;
    if (kind?.kind === 'text') {
      for (; this.scanned < this.line.length; this.scanned++) if (this.cuts.feed(this.line[this.scanned]!)) this.segment(this.scanned + 1, kind);
    } else if (kind?.kind === 'row' && this.table.open && !this.table.aligned && !delimiterSoFar(this.line)) {
      // Under a row that could have been a header, a line that is no delimiter row: no table.
      this.table.headerAsText();
    }
  }

  private decide(complete: boolean): void {
    const fence = this.fence;
    let kind: Kind | undefined;
    if (fence) {
      const inFence = classifyInFence(this.line, complete, fence);
      kind = inFence === 'code' ? { kind: 'code', content: Math.min(fence.indent, /^ */.exec(this.line)![0].length) } : inFence && { kind: 'close' };
    } else kind = classify(this.line, complete, { columns: this.cur.columns, afterParagraph: this.afterParagraph, cutoff: this.cutoff });
    if (!kind) return;
    this.kind = kind;
    if (this.table.open && kind.kind !== 'row') this.table.close();
    if (kind.kind === 'text') {
      this.begin();
      if (kind.prefix.length || kind.base) this.restyle(kind.prefix, kind.content);
      this.seg = this.scanned = kind.content;
      this.cuts.reset();
    } else if (kind.kind === 'code') {
      this.begin();
      this.restyle([{ text: ' '.repeat(fence!.indent) + CODE_INDENT, sgr: '' }], kind.content);
    }
  }

  /** The line's start shown as `prefix`, its text from `content` on to be shown in its style. */
  private restyle(prefix: Run[], content: number): void {
    if (this.shown > 0) this.cur.back(this.start);
    this.cur.runs(prefix);
    this.commit = this.cur.pos();
    this.shown = content;
  }

  /** Where the line shows, once something of it does (blank lines before it first). */
  private begin(): void {
    if (this.started) return;
    for (; this.blanks > 0; this.blanks--) this.cur.newline();
    this.started = true;
    this.start = this.commit = this.cur.pos();
  }

  /** The segment of a text line that ends at `end`, rendered; left as shown when it is plain. */
  private segment(end: number, kind: Text): void {
    const raw = this.line.slice(this.seg, end);
    const runs = inlineRuns(raw, kind.base, this.tools.lex);
    if (plainAs(runs, sanitize(raw), kind.base)) {
      // Shown right already (what is shown past it stays, as typed).
      if (this.shown < end) this.cur.write(styled(sanitize(this.line.slice(this.shown, end)), kind.base));
      this.commit = this.shown > end ? this.cur.after(this.commit, sanitize(raw)) : this.cur.pos();
      this.shown = Math.max(this.shown, end);
    } else {
      if (this.shown > this.seg) this.cur.back(this.commit);
      this.cur.runs(runs);
      this.commit = this.cur.pos();
      this.shown = end;
    }
    this.seg = end;
  }

  /** What arrived of the line and is not shown yet, as typed. */
  private showTyped(): void {
    const kind = this.kind;
    if (this.shown >= this.line.length) return;
    // A line that may yet show nothing (blank, a fence) shows once it is known.
    if (!kind && /^[ \t]*([`~]|$)/.test(this.line)) return;
    this.begin();
    if (kind?.kind === 'row') this.rowGrows();
    if (this.shown >= this.line.length) return;
    const base = kind?.kind === 'text' ? kind.base : kind?.kind === 'code' ? CODE : '';
    this.cur.write(styled(sanitize(this.line.slice(this.shown)), base));
    this.shown = this.line.length;
  }

  private finish(): void {
    if (!this.kind) this.decide(true);
    const kind = this.kind!;
    switch (kind.kind) {
      case 'text':
        if (this.seg < this.line.length) this.segment(this.line.length, kind);
        this.begin();
        this.cur.newline();
        break;
      case 'code':
        this.finishCode(kind.content);
        break;
      case 'fence':
        this.fence = { char: kind.char, length: kind.length, indent: /^ */.exec(this.line)![0].length, lang: kind.lang };
        this.erase();
        break;
      case 'close':
        this.fence = undefined;
        this.erase();
        this.display.close();
        break;
      case 'blank':
        this.erase();
        this.blanks++;
        break;
      case 'rule':
        this.erase();
        this.begin();
        this.cur.runs(kind.runs);
        this.cur.newline();
        break;
      case 'row':
        this.finishRow();
        break;
      case 'typed':
        this.showTyped();
        this.cur.newline();
    }
    this.afterParagraph = kind.kind === 'text' && kind.paragraph;
    this.line = '';
    this.kind = undefined;
    this.started = false;
    this.seg = this.scanned = this.shown = 0;
  }

  /** Whatever of the line shows, gone. */
  private erase(): void {
    if (this.started) this.cur.back(this.start);
  }

  private finishCode(content: number): void {
    const code = sanitize(this.line.slice(content));
    const lang = this.fence?.lang ?? '';
    const math = this.fence?.char === '$';
    const fits = this.fits(this.commit.col, code);
    this.begin();
    if (math && this.display.line(this.commit, code, fits)) return;
    const highlighted = lang && fits && !math ? this.tools.highlight?.(code, lang) : undefined;
    if (highlighted === undefined) this.showTyped();
    else {
      this.cur.back(this.commit);
      this.cur.write(highlighted);
    }
    this.cur.newline();
  }

  /** Whether `text` shown from column `col` spans few enough rows to be redrawn. */
  private fits(col: number, text: string): boolean {
    return this.cur.after({ row: 0, col }, text).row + 1 <= this.live;
  }

  /** Rows span: from `from` to the end of what is left of the line, once shown. */
  private spanWithLine(from: Pos): number {
    const end = this.cur.after(this.cur.pos(), sanitize(this.line.slice(this.shown)));
    return end.row - from.row + 1;
  }

  /**
   * A table line grows: a table that would no longer fit the window is drawn now (or, before its
   * delimiter row, shown as text); a line that alone would not is left as typed.
   */
  private rowGrows(): void {
    const table = this.table;
    for (;;) {
      if (!table.open || table.drawn) {
        if (this.spanWithLine(this.start) > this.live) this.kind = { kind: 'typed' };
        return;
      }
      if (this.spanWithLine(table.start!) <= this.live) return;
      if (table.aligned) table.draw(false);
      else table.headerAsText();
    }
  }

  private finishRow(): void {
    this.begin();
    this.rowGrows();
    if (this.kind?.kind === 'typed') {
      this.showTyped();
      this.cur.newline();
      return;
    }
    const table = this.table;
    if (table.drawn) {
      this.cur.back(this.start);
      for (const line of table.drawnRow(this.line)) {
        this.cur.write(line);
        this.cur.newline();
      }
      return;
    }
    // Shown as typed until the table is drawn.
    if (!table.open) {
      this.showTyped();
      table.begin(this.start, this.line);
    } else if (!table.aligned) {
      if (!table.align(this.line)) {
        table.headerAsText();
        this.finishRow();
        return;
      }
      this.showTyped();
    } else {
      this.showTyped();
      table.add(this.line);
    }
    this.cur.newline();
  }

  /** The line being written shows again from here (what showed of it was erased). */
  private restart(): void {
    if (this.started) this.start = this.commit = this.cur.pos();
    this.shown = 0;
  }
}

const styled = (text: string, style: string) => (style && text ? `${style}${text}\u001b[0m` : text);
