// A log's words as PostgreSQL's index holds them (schema.ts): computed here, by the server that
// writes the log (ctx.sessions.addLogColumn), because PostgreSQL's own tokenizer reads about
// 7 MB/s, which made an import's index cost 3x the import itself (B12 in bench/README.md). The
// words are cut and folded as a search's terms are (terms.ts), so one rule serves both. A run of
// Chinese, Japanese or Korean (no spaces between words) gives its characters and their pairs
// (cjkGrams): a CJK term's grams find the logs that may hold it, the text then checked (cjkSearch.ts).
import type { LogText } from '../../../src/core/index.ts';
import { fold, isCjk, pieces, TERM_MAX } from './terms.ts';

/** The grams of a CJK term that every log holding it holds: its one character, or its pairs of characters. */
export function cjkGrams(term: string): string[] {
  const chars = Array.from(term.normalize('NFC'));
  if (chars.length === 1) return chars;
  return [...new Set(chars.slice(1).map((c, i) => chars[i]! + c))];
}

/** Distinct words kept of one log at most: a bound on its index entries, far above a real text's vocabulary. */
export const LOG_WORDS_MAX = 50_000;

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** The words of lower-case ASCII text, [a-z0-9] runs: a loop over char codes reads 1.6x faster than a global regex. */
function addAsciiWords(text: string, words: Set<string>): void {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= TERM_MAX) words.add(text.slice(start, i));
      start = -1;
    }
  }
}

/** The distinct folded words of a log's question and answer, each a term a search may look for. */
export function logWords({ input, output }: LogText): string[] {
  const words = new Set<string>();
  const others = new Set<string>();
  const cjk = new Set<string>();
  for (const text of [input, output]) {
    if (!NON_ASCII.test(text)) {
      // ASCII: lower case is the whole fold, and letters and digits are [a-z0-9].
      addAsciiWords(text.toLowerCase(), words);
    } else for (const piece of pieces(text)) (isCjk(piece) ? cjk : others).add(piece);
  }
  for (const piece of others) {
    const term = fold(piece);
    if (term && term.length <= TERM_MAX) words.add(term);
  }
  for (const run of cjk) {
    const chars = Array.from(run.normalize('NFC'));
    for (let i = 0; i < chars.length; i++) {
      words.add(chars[i]!);
      if (i + 1 < chars.length) words.add(chars[i]! + chars[i + 1]!);
    }
  }
  return words.size > LOG_WORDS_MAX ? [...words].slice(0, LOG_WORDS_MAX) : [...words];
}
