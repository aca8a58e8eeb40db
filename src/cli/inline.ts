// A line's inline markdown for the terminal, in segments: the text is cut after a space where no
// emphasis, code span, inline math, link or tag is open, so a finished segment renders the same whatever
// follows it and is printed once, while the open one shows as typed. The cuts depend on the
// text alone (never on how it was split into deltas), so a streamed answer and the same answer
// printed at once are cut, and so rendered, alike.
import type { Token, Tokens } from 'marked';
import { sanitize, sgr, type Run } from './termText.ts';

const STYLE = {
  strong: sgr(1),
  em: sgr(3),
  code: sgr(33),
  math: sgr(36),
  del: sgr(2, 9),
  link: sgr(34),
  href: sgr(34, 4),
  html: sgr(90),
};

const FLANKED = new Set(['*', '_', '~']);
const space = (ch: string | undefined) => ch === undefined || ch === ' ' || ch === '\t';
const wordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/**
 * Where a line's segments end. `feed` takes the line's characters in order and says whether a
 * segment may end right after the one given. Emphasis is counted by delimiter runs (an odd
 * count is open), which errs on the side of waiting: a segment left open only ends later.
 */
export class SegmentCuts {
  private ticks = 0; // the length of the backtick run that opened a code span
  private dollars = 0; // the length of the dollar run that opened inline math
  private run = '';
  private runLength = 0;
  private runPrev: string | undefined;
  private counts = { '*': 0, _: 0, '~': 0 } as Record<string, number>;
  private brackets = 0;
  private parens = 0;
  private closedBracket = false;
  private lt = false;
  private tag = false;
  private escaped = false;
  private prev: string | undefined;
  /** Characters since the last cut: a segment is cut at `soft` at a space, at `hard` anywhere. */
  length = 0;

  private readonly soft: number;
  private readonly hard: number;

  constructor(soft: number, hard: number) {
    this.soft = soft;
    this.hard = hard;
  }

  reset(): void {
    this.ticks = this.dollars = this.runLength = this.brackets = this.parens = this.length = 0;
    this.run = '';
    this.counts = { '*': 0, _: 0, '~': 0 };
    this.closedBracket = this.lt = this.tag = this.escaped = false;
    this.prev = undefined;
  }

  feed(ch: string): boolean {
    this.length++;
    if (this.runLength && ch !== this.run) this.endRun(ch);
    if (this.escaped) this.escaped = false;
    else if ((ch === '`' && this.dollars === 0) || (ch === '$' && this.ticks === 0) || (this.ticks === 0 && this.dollars === 0 && FLANKED.has(ch))) {
      if (this.runLength === 0) {
        this.run = ch;
        this.runPrev = this.prev;
      }
      this.runLength++;
    } else if (this.ticks === 0 && this.dollars === 0) this.punctuation(ch);
    this.prev = ch;
    // Never between the halves of a surrogate pair.
    const forced = (this.length >= this.hard && !/[\ud800-\udbff]/.test(ch)) || (this.length >= this.soft && space(ch));
    if (!forced && (!space(ch) || this.open())) return false;
    this.reset();
    return true;
  }

  private punctuation(ch: string): void {
    const afterBracket = this.closedBracket;
    this.closedBracket = false;
    if (this.lt) {
      this.lt = false;
      if (/[A-Za-z/!?]/.test(ch)) this.tag = true;
    }
    if (ch === '\\') this.escaped = true;
    else if (ch === '[') this.brackets++;
    else if (ch === ']' && this.brackets > 0) {
      this.brackets--;
      this.closedBracket = true;
    } else if (ch === '(' && (afterBracket || this.parens > 0)) this.parens++;
    else if (ch === ')' && this.parens > 0) this.parens--;
    else if (ch === '<') this.lt = true;
    else if (ch === '>') this.tag = false;
  }

  private endRun(next: string): void {
    if (this.run === '`') {
      if (this.ticks === 0) this.ticks = this.runLength;
      else if (this.runLength === this.ticks) this.ticks = 0;
    } else if (this.run === '$') {
      // Math as a code span: a price's lone `$` keeps the segment open to the line's end.
      if (this.dollars === 0) this.dollars = this.runLength;
      else if (this.runLength === this.dollars) this.dollars = 0;
    } else {
      const before = this.runPrev;
      const counted = !(space(before) && space(next)) && !(this.run === '_' && wordChar(before) && wordChar(next));
      if (counted) this.counts[this.run]! += this.runLength;
    }
    this.runLength = 0;
    this.run = '';
  }

  private open(): boolean {
    const c = this.counts;
    return this.ticks > 0 || this.dollars > 0 || this.brackets > 0 || this.parens > 0 || this.tag || c['*']! % 2 === 1 || c._! % 2 === 1 || c['~']! % 2 === 1;
  }
}

// What can only be plain text: no markup character, entity or autolink.
const MARKUP = /[\\`*_~[\]<>&@$]|:\/\/|www\./i;

type InlineLexer = (text: string) => Token[];

/** A segment's runs, in the line's `base` style. */
export function inlineRuns(text: string, base: string, lex: InlineLexer): Run[] {
  const clean = sanitize(text);
  if (!MARKUP.test(clean)) return [{ text: clean, sgr: base }];
  const runs: Run[] = [];
  tokenRuns(lex(clean), base, runs);
  return runs;
}

/** Whether runs show exactly `text` in `base`, as the segment was shown while typed. */
export function plainAs(runs: readonly Run[], text: string, base: string): boolean {
  let joined = '';
  for (const r of runs) {
    if (r.text && r.sgr !== base) return false;
    joined += r.text;
  }
  return joined === text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!);

function tokenRuns(tokens: readonly Token[], style: string, out: Run[]): void {
  const push = (text: string, sgrs: string) => {
    if (!text) return;
    const last = out.at(-1);
    if (last && last.sgr === sgrs) last.text += text;
    else out.push({ text, sgr: sgrs });
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        if ('tokens' in token && token.tokens?.length) tokenRuns(token.tokens, style, out);
        else push(decode(token.text), style);
        break;
      case 'escape':
        push(token.text, style);
        break;
      case 'strong':
      case 'em':
      case 'del':
        tokenRuns((token as Tokens.Strong).tokens, style + STYLE[token.type], out);
        break;
      case 'codespan':
        push(token.text, style + STYLE.code);
        break;
      case 'inlineMath':
        push(token.text, style + STYLE.math);
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const shown = link.tokens.map((t) => t.raw).join('');
        // An autolink shows its text; a link with words shows them and then where it goes.
        if (shown === link.href || link.href === `mailto:${shown}` || link.href === `http://${shown}`) push(shown, style + STYLE.href);
        else {
          tokenRuns(link.tokens, style + STYLE.link, out);
          push(' (', style);
          push(link.href, style + STYLE.href);
          push(')', style);
        }
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        push(`![${image.text}](${image.href})`, style);
        break;
      }
      case 'html':
        push(token.raw, style + STYLE.html);
        break;
      case 'br':
        break;
      default:
        push(token.raw, style);
    }
  }
}
