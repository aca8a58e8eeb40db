// Prices are not math: remark-math pairs any two single dollars, so before it parses a block
// the dollars that are not math by the shared rule (src/core/mathDollars.ts) are escaped.
// A function of the block's text alone, so a streamed block renders as it does in one shot.
import { escapeTextDollars } from '../../core/mathDollars.ts';

/** A code fence, or a `$$` math block's (whose TeX is left as written too). */
const FENCE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,}|\${2,}(?=[^$]*$))/;
/** Indented code (or a list's deeper paragraph, which cannot be told apart line by line): left as written. */
const INDENTED = /^(?: {4}|\t)/;

/** The markdown with every dollar outside code that is not math escaped. */
export function escapeMarkdownDollars(markdown: string): string {
  if (!markdown.includes('$')) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  let text: string[] = [];
  let fence: string | undefined;
  let blankBefore = true;
  let inIndented = false;
  const flush = () => {
    if (text.length) out.push(escapeTextDollars(text.join('\n')));
    text = [];
  };
  for (const line of lines) {
    const blank = line.trim() === '';
    if (fence) {
      out.push(line);
      const m = FENCE.exec(line);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.slice(m.index + m[0].length).trim() === '') fence = undefined;
    } else if (FENCE.test(line)) {
      flush();
      fence = FENCE.exec(line)![1];
      out.push(line);
    } else if (INDENTED.test(line) && !blank && (blankBefore || inIndented)) {
      flush();
      inIndented = true;
      out.push(line);
    } else {
      if (!blank) inIndented = false;
      text.push(line);
    }
    if (!fence) blankBefore = blank;
  }
  flush();
  return out.join('\n');
}
