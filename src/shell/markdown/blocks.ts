// Splits markdown into top-level blocks, incrementally, for the streaming renderer.
//
// A line scanner, not a parser: it only has to find boundaries where parsing the pieces one by
// one gives the same result as parsing the whole. A block ends
//   - at a blank line followed by a line that starts in column 0 (an indented line continues
//     a list item or an indented code block), except that a list marker after a blank line
//     continues a list block (a loose list stays one list);
//   - before a code fence (``` or ~~~) or a `$$` math opener in column 0-3, which interrupt
//     a paragraph (and end a list or a quote when in column 0).
// Blank lines inside an open fence or math block never split it. A block is finished once
// the next one has started; finished blocks never change and are never scanned again while
// the text only grows (the stream case). Only complete lines are classified: the partial last
// line belongs to the tail.
//
// Document-scoped constructs: link reference definitions are collected from the start of
// finished blocks and passed along to the blocks that may use them; footnote definitions are
// only reported (`footnotes`), so that a finished text can be rendered as one document.

export type OpenKind = 'fence' | 'math';

export interface Split {
  /** Finished blocks (trailing blank lines removed). Never change while the text grows. */
  blocks: readonly string[];
  /** The same blocks in groups of GROUP_SIZE. A full group keeps its array identity for as
   *  long as the text only grows, so a renderer can skip it with one comparison. */
  groups: readonly (readonly string[])[];
  /** The unfinished last block, including the partial last line ('' when there is none). */
  tail: string;
  /** What is open at the end of the text: a code fence or a `$$` math block, or nothing. */
  open: OpenKind | null;
  /** Link reference definitions (`[id]: url`) found at the start of finished blocks, one per line. */
  definitions: string;
  /** A footnote definition (`[^id]: ...`) appears somewhere in the text. */
  footnotes: boolean;
}

interface Fence {
  kind: OpenKind;
  char: string;
  length: number;
  indent: number;
}

type BlockKind = 'list' | 'quote' | 'other';

export const GROUP_SIZE = 16;

const LIST_MARKER = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE = /^ {0,3}>/;
const QUOTE_PREFIX = /^(?: {0,3}> ?)+/;
const LIST_PREFIX = /^[ \t]{0,10}(?:[-+*]|\d{1,9}[.)])[ \t]+/;
const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/;
const MATH_OPEN = /^( *)(\${2,})([^$]*)$/;
const DEFINITION = /^ {0,3}\[(?!\^)(?:[^\]\\]|\\.){1,999}\]:[ \t]*\S/;
const FOOTNOTE = /^ {0,3}\[\^[^\]\s]+\]:/;
const BLANK = /^[ \t]*$/;

const indentOf = (line: string): number => {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
};

/** The fence or math block a line opens, if any. `maxIndent` is 3 at top level, more inside lists. */
function opener(line: string, maxIndent: number): Fence | null {
  const fence = FENCE_OPEN.exec(line);
  if (fence) {
    const [, spaces, run, info] = fence as unknown as [string, string, string, string];
    // A backtick fence's info string may not contain a backtick.
    if (spaces.length <= maxIndent && !(run[0] === '`' && info.includes('`'))) {
      return { kind: 'fence', char: run[0]!, length: run.length, indent: spaces.length };
    }
    return null;
  }
  const math = MATH_OPEN.exec(line);
  if (math && math[1]!.length <= maxIndent) return { kind: 'math', char: '$', length: math[2]!.length, indent: math[1]!.length };
  return null;
}

/** Whether a line closes an open fence. Indentation is only checked at top level: inside a
 *  list the container's indentation is not tracked, so any indentation is accepted. */
function closes(line: string, open: Fence, topLevel: boolean): boolean {
  const trimmed = line.trimEnd();
  const body = trimmed.trimStart();
  if (topLevel && trimmed.length - body.length > 3) return false;
  if (body.length < open.length) return false;
  for (const ch of body) if (ch !== open.char) return false;
  return true;
}

export class BlockSplitter {
  private text = '';
  private blocks: string[] = [];
  private groups: string[][] = [];
  /** Blocks finished during the current update, not yet in `blocks` and `groups`. */
  private finished: string[] = [];
  private definitions: string[] = [];
  private footnotes = false;
  /** Offset of the next line to classify (the start of the partial last line). */
  private pos = 0;
  /** Start of the current (unfinished) block, -1 when no content line has been seen yet. */
  private start = -1;
  /** End of the last content line of the current block. */
  private end = 0;
  private kind: BlockKind = 'other';
  private blank = false;
  private fence: Fence | null = null;
  /** The open fence started the current block (so its closing line ends the block). */
  private openedBlock = false;
  private last: Split | undefined;

  /** Splits `text`. When it extends the previous text, only the new complete lines are scanned. */
  update(text: string): Split {
    if (this.last && text === this.text) return this.last;
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    let nl: number;
    while ((nl = text.indexOf('\n', this.pos)) !== -1) {
      this.line(text.slice(this.pos, nl), this.pos);
      this.pos = nl + 1;
    }
    this.publish();
    const partial = text.slice(this.pos);
    let open: OpenKind | null = this.fence?.kind ?? null;
    if (!open && !BLANK.test(partial)) {
      // A partial line may already be an opener ("```ts" before its newline arrives).
      const content = partial.replace(QUOTE_PREFIX, '').replace(LIST_PREFIX, '');
      open = opener(content, this.kind === 'other' && content === partial ? 3 : 10)?.kind ?? null;
    }
    const tailStart = this.start === -1 ? this.pos : this.start;
    const tail = BLANK.test(text.slice(tailStart)) ? '' : text.slice(tailStart);
    this.last = {
      blocks: this.blocks,
      groups: this.groups,
      tail,
      open,
      definitions: this.definitions.join('\n'),
      // The partial line counts, but is not remembered: it is classified again once complete.
      footnotes: this.footnotes || (!this.fence && FOOTNOTE.test(partial)),
    };
    return this.last;
  }

  private reset(): void {
    this.text = '';
    this.blocks = [];
    this.groups = [];
    this.finished = [];
    this.definitions = [];
    this.footnotes = false;
    this.pos = 0;
    this.start = -1;
    this.end = 0;
    this.kind = 'other';
    this.blank = false;
    this.fence = null;
    this.openedBlock = false;
    this.last = undefined;
  }

  private line(line: string, at: number): void {
    if (this.fence) {
      const content = this.kind === 'quote' ? line.replace(QUOTE_PREFIX, '') : line;
      if (closes(content, this.fence, this.kind === 'other')) {
        this.fence = null;
        // A top-level fence or math block ends its block: what follows starts a new one.
        if (this.openedBlock) this.blank = true;
      }
      this.end = at + line.length;
      return;
    }
    if (BLANK.test(line)) {
      if (this.start !== -1) this.blank = true;
      return;
    }
    if (!this.footnotes && FOOTNOTE.test(line)) this.footnotes = true;
    const indent = indentOf(line);
    // Where a fence may be: after quote markers and list markers ("> ```", "- ```", "  ```" in an item).
    const content = line.replace(QUOTE_PREFIX, '').replace(LIST_PREFIX, '');
    const opens = opener(content, this.kind === 'other' && content === line ? 3 : 10);
    let started = false;
    if (this.start === -1) {
      started = true;
    } else if (this.blank && indent === 0 && !(this.kind === 'list' && LIST_MARKER.test(line))) {
      this.finish();
      started = true;
    } else if (!this.blank && opens && content === line && (this.kind === 'other' ? indent <= 3 : indent === 0)) {
      // A fence or math block interrupts a paragraph; in column 0 it also ends a list or quote.
      this.finish();
      started = true;
    }
    if (started) this.begin(line, at);
    this.blank = false;
    this.end = at + line.length;
    if (opens) {
      this.fence = opens;
      this.openedBlock = started && content === line;
    }
  }

  private begin(line: string, at: number): void {
    this.start = at;
    this.kind = LIST_MARKER.test(line) ? 'list' : QUOTE.test(line) ? 'quote' : 'other';
  }

  /**
   * The blocks finished by this update, added to new `blocks` and `groups` arrays once (copying
   * the lists for each block made a text of 20,000 blocks take seconds to split). Full groups
   * keep their identity; the last group is a new array when it grew.
   */
  private publish(): void {
    if (!this.finished.length) return;
    this.blocks = [...this.blocks, ...this.finished];
    const groups = this.groups.slice();
    let last = groups.at(-1);
    if (last && last.length < GROUP_SIZE) groups[groups.length - 1] = last = [...last];
    for (const block of this.finished) {
      if (!last || last.length >= GROUP_SIZE) groups.push((last = []));
      last.push(block);
    }
    this.groups = groups;
    this.finished = [];
  }

  private finish(): void {
    const block = this.text.slice(this.start, this.end);
    this.finished.push(block);
    for (const line of block.split('\n')) {
      if (!DEFINITION.test(line)) break;
      this.definitions.push(line.trim());
    }
    this.start = -1;
    this.blank = false;
  }
}

/** One-shot split of a whole text. */
export function splitBlocks(text: string): Split {
  return new BlockSplitter().update(text);
}
