// A search text as index terms, and snippets with the matched words marked. Only runs of
// letters and digits are kept, so quotes, `*`, `NEAR`, `-` and parentheses typed in a search are
// never the FTS syntax of any engine, and each term is quoted again where it is used.
import { SEARCH_TERMS_MAX } from '../common/api.ts';

/** A word as every engine's index compares it: lower case, without diacritics (FTS5's remove_diacritics). */
export const fold = (word: string) => word.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

const WORD = /[\p{L}\p{N}]+/gu;
/** Longer words are no index term on MySQL (84) and need no more. */
const TERM_MAX = 64;

/**
 * The distinct words of a search, at most SEARCH_TERMS_MAX; `NEAR`, `AND` and `OR` are words like
 * any. `keepAccents`: lower case only (PostgreSQL's 'simple' configuration keeps accents).
 */
export function searchTerms(text: string, keepAccents = false): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const term = keepAccents ? m[0].toLowerCase() : fold(m[0]);
    if (term && term.length <= TERM_MAX) out.add(term);
    if (out.size >= SEARCH_TERMS_MAX) break;
  }
  return [...out];
}

/** The ranges of `text` whose words are terms. */
export function markTerms(text: string, terms: readonly string[], most = Infinity): [number, number][] {
  const wanted = new Set(terms.map(fold));
  const marks: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    if (wanted.has(fold(m[0]))) marks.push([m.index, m.index + m[0].length]);
    if (marks.length >= most) break;
  }
  return marks;
}

/** How far into a log a snippet looks for its first match (a log may be megabytes). */
const SNIPPET_SCAN = 200_000;

/**
 * About `width` characters on one line around the first matched word, with '…' where cut and
 * the matched words' ranges in the snippet; the start when nothing matches.
 */
export function snippet(text: string, terms: readonly string[], width = 160): { snippet: string; marks: [number, number][] } {
  // One line first (a log is markdown over many lines); the same length, so offsets hold.
  const flat = text.slice(0, SNIPPET_SCAN).replace(/\s/g, ' ');
  const first = markTerms(flat, terms, 1)[0];
  let start = first ? Math.max(0, first[0] - Math.floor(width / 3)) : 0;
  // Never cut a word (up to a long one's 64 characters) or a surrogate pair in two.
  for (let back = 0; start > 0 && back < TERM_MAX && /[\p{L}\p{N}]/u.test(flat[start - 1]!); back++) start--;
  if (start > 0 && /[\uDC00-\uDFFF]/.test(flat[start] ?? '')) start--;
  let end = Math.min(flat.length, start + width);
  if (/[\uD800-\uDBFF]/.test(flat[end - 1] ?? '')) end--;
  const head = start > 0 ? '…' : '';
  const body = flat.slice(start, end).replace(/ {2,}/g, ' ');
  const piece = `${head}${body}${end < flat.length ? '…' : ''}`;
  return { snippet: piece, marks: markTerms(piece, terms) };
}
