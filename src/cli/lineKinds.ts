// What a markdown line is, known from its first characters: a heading, a list item, a quote, a
// paragraph's text, a table row, a fence, a rule, a blank line. A line whose start is still
// ambiguous ("-" may become a list item or a rule, "1" an ordered item or a number) is undecided
// until a character settles it or the line ends. A decision never changes as the line grows,
// so a line is classed alike whether it arrived in pieces or at once.
import { sgr, type Run } from './termText.ts';

const HEADING = [sgr(35, 4, 1), sgr(32, 1)];
const QUOTE = sgr(90, 3);
const QUOTE_BAR = sgr(90);
const RULE = sgr(90);

export type LineKind =
  /** Inline text from `content` on, after `prefix` (a bullet, a heading's marks), in `base`. */
  | { kind: 'text'; content: number; prefix: Run[]; base: string; paragraph: boolean }
  | { kind: 'blank' }
  /** A thematic break or a setext heading's underline, drawn as `runs`. */
  | { kind: 'rule'; runs: Run[] }
  | { kind: 'fence'; char: string; length: number; lang: string }
  | { kind: 'row' };

interface LineContext {
  columns: number;
  /** The previous line was a paragraph's text (a `===` under it makes it a heading). */
  afterParagraph: boolean;
  /** An undecided start longer than this is a paragraph's text. */
  cutoff: number;
}

const text = (content: number, prefix: Run[], base = '', paragraph = false): LineKind => ({ kind: 'text', content, prefix, base, paragraph });
const paragraph = text(0, [], '', true);

/** The kind of a line outside a code fence, or undefined while its start is ambiguous. */
export function classify(line: string, complete: boolean, ctx: LineContext): LineKind | undefined {
  // Past the cutoff, the line is decided by its first characters alone, as it was while typed.
  if (line.length > ctx.cutoff) {
    return classify(line.slice(0, ctx.cutoff), false, ctx) ?? (line.trim() ? paragraph : { kind: 'blank' });
  }
  const indent = /^[ \t]*/.exec(line)![0];
  const rest = line.slice(indent.length);
  if (!rest) return complete ? { kind: 'blank' } : undefined;
  const pad = indent.replaceAll('\t', '    ');
  switch (rest[0]) {
    case '#': {
      const marks = /^#{1,6}(?= |\t|$)/.exec(rest)?.[0];
      if (marks && (rest.length > marks.length || complete)) {
        const style = HEADING[marks.length === 1 ? 0 : 1]!;
        return text(indent.length + Math.min(rest.length, marks.length + 1), [{ text: pad, sgr: '' }, { text: `${marks} `, sgr: style }], style);
      }
      return /^#{1,6}$/.test(rest) && !complete ? undefined : paragraph;
    }
    case '>': {
      if (rest.length === 1 && !complete) return undefined;
      const content = indent.length + (/^> ?/.exec(rest)![0].length);
      return text(content, [{ text: pad, sgr: '' }, { text: '│ ', sgr: QUOTE_BAR }], QUOTE);
    }
    case '`':
    case '~': {
      const fence = /^(`{3,}|~{3,})(.*)$/.exec(rest);
      const info = fence?.[2] ?? '';
      if (fence && !(fence[1]![0] === '`' && info.includes('`'))) {
        return complete ? { kind: 'fence', char: fence[1]![0]!, length: fence[1]!.length, lang: info.trim().split(/\s/)[0] ?? '' } : undefined;
      }
      return !complete && /^(`{1,2}|~{1,2})$/.test(rest) ? undefined : paragraph;
    }
    case '$':
      // `$$` alone opens display math, read as a fence of its own (markdown.ts renders its lines).
      if (/^\$\$[ \t]*$/.test(rest)) return complete ? { kind: 'fence', char: '$', length: 2, lang: '' } : undefined;
      return !complete && rest === '$' ? undefined : paragraph;
    case '|':
      return { kind: 'row' };
    case '-':
    case '*':
    case '+':
    case '_':
    case '=':
      if (/^[-*+_= \t]*$/.test(rest)) {
        if (!complete) return undefined;
        const bare = rest.trimEnd();
        if (ctx.afterParagraph && /^(=+|-+)$/.test(bare)) {
          const style = HEADING[bare[0] === '=' ? 0 : 1]!;
          return { kind: 'rule', runs: [{ text: pad, sgr: '' }, { text: (bare[0] === '=' ? '═' : '─').repeat(bare.length), sgr: style }] };
        }
        if (/^([-*_])([ \t]*\1){2,}$/.test(bare)) return { kind: 'rule', runs: [{ text: '─'.repeat(Math.max(1, ctx.columns - 1)), sgr: RULE }] };
      }
      return item(/^[-*+][ \t]/.exec(rest)?.[0], indent, pad, '• ') ?? paragraph;
    default: {
      if (!/^[0-9]/.test(rest[0]!)) return paragraph;
      if (!complete && /^[0-9]{1,9}[.)]?$/.test(rest)) return undefined;
      const marker = /^([0-9]{1,9}[.)])[ \t]/.exec(rest);
      return item(marker?.[0], indent, pad, `${marker?.[1]} `) ?? paragraph;
    }
  }
}

function item(marker: string | undefined, indent: string, pad: string, shown: string): LineKind | undefined {
  return marker ? text(indent.length + marker.length, [{ text: `${pad}${shown}`, sgr: '' }]) : undefined;
}

/** Inside a fence: a code line, the closing fence (known once the line ends), or undecided. */
export function classifyInFence(line: string, complete: boolean, fence: { char: string; length: number }): 'code' | 'close' | undefined {
  if (fence.char === '$') {
    if (!/^ {0,3}\${0,2}[ \t]*$/.test(line)) return 'code';
    return complete ? (/^ {0,3}\$\$[ \t]*$/.test(line) ? 'close' : 'code') : undefined;
  }
  const m = /^( {0,3})([`~]*)([ \t]*)$/.exec(line);
  if (!m || (m[2] && m[2][0] !== fence.char) || /[`~]/.test(m[2]!.replaceAll(fence.char, '')) || (m[3] && m[2]!.length < fence.length)) return 'code';
  if (!complete) return undefined;
  return m[2]!.length >= fence.length ? 'close' : 'code';
}
