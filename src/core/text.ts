// Text rules of the spec: full-width folding (part 5), display width with CJK counting 2,
// placeholder shortening (part 2) and preview truncation (part 3).
import { PLACEHOLDER_LENGTH, PLACEHOLDER_MAX_WIDTH, PREVIEW_LENGTH } from './constants.ts';

export const ELLIPSIS = '...';

/** Folds full-width ASCII letters and digits (Ａ-Ｚ, ａ-ｚ, ０-９) to half-width. Nothing else. */
export function foldFullWidth(text: string): string {
  return text.replace(/[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g, (ch) =>
    String.fromCharCode(ch.charCodeAt(0) - 0xfee0),
  );
}

/** True for code points that East Asian typography draws two columns wide. */
export function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf && codePoint !== 0x303f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  );
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isWide(ch.codePointAt(0)!) ? 2 : 1;
  return width;
}

/** Takes the first `count` characters (code points, so emoji and CJK are never split). */
export function takeChars(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

/**
 * Spec part 2: the placeholder is shortened to 20 characters plus an ellipsis when its width is
 * 45 or more (CJK characters count 2) or when it contains a newline.
 */
export function shortenPlaceholder(text: string): string {
  if (displayWidth(text) >= PLACEHOLDER_MAX_WIDTH || text.includes('\n')) {
    return takeChars(text.split('\n').join(' '), PLACEHOLDER_LENGTH) + ELLIPSIS;
  }
  return text;
}

/** Spec part 3: previews keep 150 characters and add an ellipsis when they cut. */
export function truncatePreview(text: string, length = PREVIEW_LENGTH): string {
  const chars = Array.from(text);
  return chars.length > length ? chars.slice(0, length).join('') + ELLIPSIS : text;
}

/**
 * A preview on one line: whitespace runs become one space, then the cut. Applying it again to
 * its own result changes nothing, so the server and the browser may both apply it (a cut
 * before the collapse would leave text the second cut trims again: 'te.....').
 */
export function previewLine(text: string, length = PREVIEW_LENGTH): string {
  return truncatePreview(text.replace(/\s+/g, ' ').trim(), length);
}
