// A search text as index terms, and snippets with the matched words marked. Only runs of
// letters and digits are kept, so quotes, `*`, `NEAR`, `-` and parentheses typed in a search are
// never the FTS syntax of any engine, and each term is quoted again where it is used. Chinese,
// Japanese and Korean are written without spaces between words (Korean's particles attach to
// them: 검색을), so a run of their characters is a term of its own, found as a substring.
import { SEARCH_TERMS_MAX } from '../common/api.ts';

/**
 * Code point ranges of the CJK scripts (kana, Han with its extensions and compatibility forms,
 * Hangul, half-width katakana): one list, so that the SQLite trigger's GLOB (schema.ts) and the
 * terms here agree.
 */
export const CJK_RANGES: [number, number][] = [
  [0x1100, 0x11ff],
  [0x3040, 0x30ff],
  [0x3131, 0x318e],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7af],
  [0xf900, 0xfaff],
  [0xff66, 0xff9f],
  [0x20000, 0x2ffff],
];
const hex = (n: number) => `\\u{${n.toString(16)}}`;
const CJK_CLASS = CJK_RANGES.map(([a, b]) => `${hex(a)}-${hex(b)}`).join('');
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
/** A run of CJK characters, or of other letters and digits. */
const PIECE = new RegExp(`[${CJK_CLASS}]+|[^\\P{L}${CJK_CLASS}]+|\\p{N}+`, 'gu');

/** Whether a term is CJK: matched as a substring of a log, not as a whole word. */
export const isCjk = (term: string) => CJK.test(term);

/** A word as every engine's index compares it: lower case, without diacritics (FTS5's remove_diacritics). */
export const fold = (word: string) => word.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

const WORD = /[\p{L}\p{N}]+/gu;
/** Longer words are no index term on MySQL (84) and need no more. */
export const TERM_MAX = 64;

/** A text's words as terms are cut from it, before folding: a word mixing CJK with other letters (MySQL数据库) is one piece of each. */
export function* pieces(text: string): Generator<string> {
  for (const m of text.matchAll(WORD)) {
    if (isCjk(m[0])) yield* joinDigits(m[0].match(PIECE) ?? []);
    else yield m[0];
  }
}

/** The distinct words of a search, at most SEARCH_TERMS_MAX; `NEAR`, `AND` and `OR` are words like any. */
export function searchTerms(text: string): string[] {
  const out = new Set<string>();
  for (const piece of pieces(text)) {
    const term = isCjk(piece) ? piece.normalize('NFC') : fold(piece);
    if (term && term.length <= TERM_MAX) out.add(term);
    if (out.size >= SEARCH_TERMS_MAX) break;
  }
  return [...out];
}

/** Digits stay with the Latin letters beside them (h264, v2), as the word indexes keep them. */
function joinDigits(parts: string[]): string[] {
  const out: string[] = [];
  for (const piece of parts) {
    const last = out[out.length - 1];
    if (last !== undefined && !isCjk(last) && !isCjk(piece)) out[out.length - 1] = last + piece;
    else out.push(piece);
  }
  return out;
}

/** The ranges of `text` whose words are terms, and where CJK terms are found in it. */
export function markTerms(text: string, terms: readonly string[], most = Infinity): [number, number][] {
  const wanted = new Set(terms.filter((t) => !isCjk(t)).map(fold));
  const cjk = terms.filter(isCjk);
  const marks: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    if (wanted.has(fold(m[0]))) marks.push([m.index, m.index + m[0].length]);
    else if (cjk.length && isCjk(m[0])) {
      // Longest first at each place, marks never overlapping.
      for (let i = 0; i < m[0].length; ) {
        const hit = cjk.filter((t) => m[0].startsWith(t, i)).reduce((a, b) => (b.length > a.length ? b : a), '');
        if (hit) {
          marks.push([m.index + i, m.index + i + hit.length]);
          i += hit.length;
        } else i++;
      }
    }
    if (marks.length >= most) break;
  }
  return marks.slice(0, most);
}

/** How far into a log a snippet looks for its first match (a log may be megabytes). */
const SNIPPET_SCAN = 200_000;
/** A character a snippet's start does not cut before: a letter or digit of a spaced script. */
const WORD_CHAR = new RegExp(`[^\\P{L}${CJK_CLASS}]|\\p{N}`, 'u');

/**
 * About `width` characters on one line around the first matched word, with '…' where cut and
 * the matched words' ranges in the snippet; the start when nothing matches.
 */
export function snippet(text: string, terms: readonly string[], width = 160): { snippet: string; marks: [number, number][] } {
  // One line first (a log is markdown over many lines); the same length, so offsets hold.
  const flat = text.slice(0, SNIPPET_SCAN).replace(/\s/g, ' ');
  const first = markTerms(flat, terms, 1)[0];
  let start = first ? Math.max(0, first[0] - Math.floor(width / 3)) : 0;
  // Never cut a word (up to a long one's 64 characters) or a surrogate pair in two; CJK text has no words to keep whole.
  for (let back = 0; start > 0 && back < TERM_MAX && WORD_CHAR.test(flat[start - 1]!); back++) start--;
  if (start > 0 && /[\uDC00-\uDFFF]/.test(flat[start] ?? '')) start--;
  let end = Math.min(flat.length, start + width);
  if (/[\uD800-\uDBFF]/.test(flat[end - 1] ?? '')) end--;
  const head = start > 0 ? '…' : '';
  const body = flat.slice(start, end).replace(/ {2,}/g, ' ');
  const piece = `${head}${body}${end < flat.length ? '…' : ''}`;
  return { snippet: piece, marks: markTerms(piece, terms) };
}
