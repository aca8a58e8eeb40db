// A page's readable text: the bytes decoded in the page's own charset (the Content-Type's,
// else a <meta> near the top, else UTF-8; TextDecoder knows windows-1251, Shift_JIS...), then
// Mozilla's Readability on linkedom's light DOM, and its article turned into plain text with
// a line per block. Scripts, styles and every attribute are gone: only text reaches the model.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { plainText } from './plain.ts';

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

function decoder(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return undefined; // an unknown label: try the next source
  }
}

/** The bytes as text in the charset the header, else (HTML) a meta tag in the first 2 KB, names. */
export function decode(data: Uint8Array, contentType: string, html: boolean): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  const head = html && !fromHeader ? new TextDecoder('latin1').decode(data.subarray(0, 2048)) : '';
  const fromMeta = head ? META_CHARSET.exec(head)?.[1] : undefined;
  return (decoder(fromHeader) ?? decoder(fromMeta) ?? new TextDecoder('utf-8')).decode(data);
}

const BLOCK_END = /<\/(p|div|h[1-6]|li|tr|pre|blockquote|section|article|header|footer|table|ul|ol|dd|dt|figcaption)\s*>|<br\s*\/?>/gi;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Readability's article (well-formed HTML that linkedom serialized: no scripts, text escaped)
 * as text with one line per block, white space collapsed within lines, no blank-line runs.
 * Done with expressions rather than a second DOM: that parse cost as much as Readability.
 */
function blocksToText(html: string): string {
  return html
    .replace(BLOCK_END, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(ENTITY, (m, name: string) => {
      const lower = name.toLowerCase();
      if (NAMED[lower] !== undefined) return NAMED[lower]!;
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : Number(lower.slice(1));
      return Number.isFinite(code) && code > 31 && code < 0x110000 ? String.fromCodePoint(code) : m;
    })
    .split('\n')
    .map((line) => line.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * HTML characters handed to the DOM and Readability at most: their cost grows faster than the
 * page (about 0.1 s for this much, 0.5 s for 300,000, 3 s for 2 MB, bench/README.md), and the
 * model gets at most WEB_PAGE_MAX_CHARS of text anyway, which the beginning of a page holds.
 */
export const PARSE_MAX_CHARS = 120_000;
/** Bytes of an HTML page read at most: enough for PARSE_MAX_CHARS characters in any charset. */
export const HTML_MAX_BYTES = PARSE_MAX_CHARS * 4;

// Parsing cost grows with what the parser keeps: scripts, styles, SVG and comments carry no
// readable text, so they go before the DOM is built.
const NOISE = /<(script|style|noscript|svg|template|iframe)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

export function htmlToPage(html: string, url: string): { title: string; text: string } {
  const cleaned = html.replace(NOISE, ' ');
  const { document } = parseHTML(cleaned);
  const docTitle = plainText(document.title ?? '');
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability resolves links against the page's URL; linkedom has no base, so give one.
    Object.defineProperty(document, 'baseURI', { value: url, configurable: true });
    article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  } catch {
    article = null; // a page Readability cannot take: its body's text below
  }
  const text = blocksToText(article?.content ?? document.body?.innerHTML ?? '');
  return { title: plainText(article?.title ?? '') || docTitle, text };
}
