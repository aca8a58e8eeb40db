// Spec part 5: arguments are split on spaces and commas; double-quoted strings stay whole.
// Quoting is remembered per token because many arguments must be quoted and the message
// for a missing quote names the argument.

export interface Token {
  /** The text with quotes removed and escapes resolved. */
  value: string;
  /** True when the token was written inside double quotes (closed). */
  quoted: boolean;
  /** Offsets into the tokenized text, quotes included; used for masking and completion. */
  start: number;
  end: number;
}

const OPEN_QUOTES = new Set(['"', '\u201C']);
const CLOSE_QUOTES = new Set(['"', '\u201D']);

export function isSeparator(ch: string): boolean {
  return ch === ' ' || ch === ',' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u3000';
}

/**
 * Splits `text` into tokens. Inside quotes `\"` is a literal quote and `\\` a backslash.
 * An unterminated quote gives an unquoted token holding the rest of the text, so that the
 * command reports its "must be quoted" message instead of silently accepting it.
 * Curly quotes (“…”) from phone keyboards count as double quotes.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (isSeparator(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (OPEN_QUOTES.has(ch)) {
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < text.length) {
        const c = text[j]!;
        if (c === '\\' && j + 1 < text.length && (CLOSE_QUOTES.has(text[j + 1]!) || text[j + 1] === '\\')) {
          value += text[j + 1];
          j += 2;
          continue;
        }
        if (CLOSE_QUOTES.has(c)) {
          closed = true;
          j++;
          break;
        }
        value += c;
        j++;
      }
      if (closed) {
        tokens.push({ value, quoted: true, start, end: j });
        i = j;
        continue;
      }
      tokens.push({ value: text.slice(start), quoted: false, start, end: text.length });
      break;
    }
    let j = i;
    while (j < text.length && !isSeparator(text[j]!)) j++;
    tokens.push({ value: text.slice(i, j), quoted: false, start, end: j });
    i = j;
  }
  return tokens;
}
