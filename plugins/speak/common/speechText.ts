// Text preparation for speech (spec part 9): emoji stripped, split on sentence punctuation,
// and a buffer that turns a stream of deltas into whole sentences as soon as they end.

const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200D\uFE0E\uFE0F\u20E3]|[\u{1F1E6}-\u{1F1FF}]/gu;
/** Sentence ends: Latin, CJK and Arabic punctuation, and line breaks. */
const SENTENCE_END = /[^.!?;。！？；؟\n]*(?:[.!?;。！？；؟]+["'”’)\]]*(?=\s|$)|[。！？；؟]+|\n+)/gu;

export function stripEmoji(text: string): string {
  return text.replace(EMOJI, '').replace(/[ \t]{2,}/g, ' ');
}

/** Splits text into sentences; the unterminated tail is returned separately. */
export function splitSentences(text: string): { sentences: string[]; rest: string } {
  const sentences: string[] = [];
  let consumed = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    if (match.index !== consumed || match[0] === '') break;
    consumed += match[0].length;
    const sentence = match[0].trim();
    if (sentence) sentences.push(sentence);
  }
  return { sentences, rest: text.slice(consumed) };
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
