// Text preparation for speech (spec part 9): emoji stripped, split on sentence punctuation,
// and a buffer that turns a stream of deltas into whole sentences as soon as they end.

const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200D\uFE0E\uFE0F\u20E3]|[\u{1F1E6}-\u{1F1FF}]/gu;
const LATIN_END = new Set(['.', '!', '?', ';']);
/** CJK and Arabic sentence punctuation ends a sentence wherever it stands. */
const WIDE_END = new Set(['。', '！', '？', '；', '؟']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']']);

export function stripEmoji(text: string): string {
  return text.replace(EMOJI, '').replace(/[ \t]{2,}/g, ' ');
}

/**
 * Splits text into sentences; the unterminated tail is returned separately. Latin punctuation
 * ends a sentence only before whitespace, so "version 1.5" and "e.g." inside words stay whole.
 */
export function splitSentences(text: string): { sentences: string[]; rest: string } {
  const sentences: string[] = [];
  let start = 0;
  let i = 0;
  const cut = (end: number) => {
    const sentence = text.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      cut(i + 1);
    } else if (WIDE_END.has(ch) || LATIN_END.has(ch)) {
      let end = i + 1;
      while (end < text.length && (LATIN_END.has(text[end]!) || WIDE_END.has(text[end]!) || CLOSERS.has(text[end]!))) end++;
      if (WIDE_END.has(ch) || (end < text.length && /\s/.test(text[end]!))) {
        cut(end);
        i = end;
        continue;
      }
    }
    i++;
  }
  return { sentences, rest: text.slice(start) };
}

/** Feeds streamed text in; hands out each sentence, emoji-free, once it is complete. */
export class SentenceBuffer {
  private pending = '';

  push(delta: string): string[] {
    this.pending += delta;
    const { sentences, rest } = splitSentences(this.pending);
    this.pending = rest;
    return sentences.map(stripEmoji).map((s) => s.trim()).filter(Boolean);
  }

  flush(): string[] {
    const last = stripEmoji(this.pending).trim();
    this.pending = '';
    return last ? [last] : [];
  }

  clear(): void {
    this.pending = '';
  }
}
