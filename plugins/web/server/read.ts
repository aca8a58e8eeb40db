// Reading one page a person or the model named: through the egress-safe fetch (private,
// loopback and metadata addresses refused after DNS and after each redirect, at most 5
// redirects), with this plugin's own caps on top: the bytes read (a longer page is read that
// far and said to be cut), the time (an endless trickle stops there), and the content types
// (HTML, plain text, PDF). The text comes out of extract.ts (Readability on linkedom, in a
// worker thread: extractPool.ts) or the server's PDF extraction.
import { MessageError, saidBy, type Message } from '../../../src/core/messages.ts';
import type { AttachmentsApi } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { cutWords, type Cut } from '../common/api.ts';
import { decode, HTML_MAX_BYTES, PARSE_MAX_CHARS } from './extract.ts';
import { plainText } from './plain.ts';

export interface Page {
  title: string;
  /** Where the page ended up (after redirects). */
  url: string;
  text: string;
  /** Why the text is not the whole page's ('' when it is). */
  cut: string;
  /** The same, as codes. */
  cuts: Cut[];
}

export interface ReadOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Characters of text the model is given of a page (WEB_PAGE_MAX_CHARS): what a parse must find. */
  wantChars: number;
}

/** The first parse of an HTML page: this many times the text wanted, in characters of HTML. */
const FIRST_PARSE = 1.5;

const TYPES = ['text/html', 'application/xhtml+xml', 'text/plain', 'application/pdf'];

/** The body up to `maxBytes`; what a timeout or the cap stops is kept and said. */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, signal: AbortSignal): Promise<{ data: Uint8Array; cut?: Cut }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut: Cut | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.byteLength >= room) {
        chunks.push(value.subarray(0, room));
        size += room;
        cut = { why: 'bytes', max: maxBytes };
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (err) {
    if (!signal.aborted || size === 0) throw err;
    cut = { why: 'time' };
  } finally {
    reader.cancel().catch(() => {});
  }
  const data = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.byteLength;
  }
  return { data, cut };
}

/** The errors an error stands for: its causes, and an AggregateError's errors (both of localhost's addresses refused). */
function causesOf(err: unknown, depth = 0): { message?: unknown; code?: unknown }[] {
  if (!err || typeof err !== 'object' || depth > 5) return [];
  const e = err as { cause?: unknown; errors?: unknown };
  const inner = Array.isArray(e.errors) ? e.errors : [];
  return [err as { message?: unknown; code?: unknown }, ...causesOf(e.cause, depth + 1), ...inner.flatMap((x) => causesOf(x, depth + 1))];
}

/** Why a page could not be fetched, as a message a person reads in their language (fetch says only 'fetch failed'). */
export function whyNotFetched(err: unknown, timedOut: boolean): string | Message {
  if (timedOut) return MESSAGES.tookTooLong;
  const said = saidBy(err);
  if (typeof said !== 'string') return said;
  const causes = causesOf(err);
  // undici refuses the fetch standard's blocked ports (1, 25, 6000...) before connecting.
  if (causes.some((c) => c.message === 'bad port')) return MESSAGES.portRefused;
  if (causes.some((c) => c.code === 'ECONNREFUSED')) return MESSAGES.connectionRefused;
  return said;
}

/** The cuts, and the same in words. */
export const cutOf = (cuts: Cut[]): { cut: string; cuts: Cut[] } => ({ cut: cuts.map(cutWords).join('; '), cuts });

/** How a page's text is taken: a PDF's by the server's extraction, HTML's in the web worker pool (extractPool.ts). */
export interface PageTools extends Pick<AttachmentsApi, 'extractText'> {
  pageOf(html: string, url: string): Promise<{ title: string; text: string }>;
}

export async function readPage(
  egressFetch: typeof fetch,
  attachments: PageTools,
  url: string,
  options: ReadOptions,
  outer: AbortSignal,
): Promise<Page> {
  if (!/^https?:\/\//i.test(url)) throw new MessageError(MESSAGES.badUrl);
  const signal = AbortSignal.any([outer, AbortSignal.timeout(options.timeoutMs)]);
  let response: Response;
  try {
    response = await egressFetch(url, { signal, headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8', 'user-agent': 'shellchat-web/1.0' } });
  } catch (err) {
    if (outer.aborted) throw err;
    throw new MessageError(MESSAGES.notFetched(whyNotFetched(err, signal.aborted)));
  }
  const finalUrl = response.url || url;
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new MessageError(MESSAGES.status(response.status));
  }
  const contentType = response.headers.get('content-type') ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!TYPES.includes(type)) {
    await response.body.cancel();
    throw new MessageError(MESSAGES.badType(plainText(type || 'of no declared type').slice(0, 80)));
  }
  // HTML is read only as far as its text is parsed (extract.ts); a PDF must be read whole.
  const html = type === 'text/html' || type === 'application/xhtml+xml';
  let read: { data: Uint8Array; cut?: Cut };
  try {
    read = await readCapped(response.body, html ? Math.min(options.maxBytes, HTML_MAX_BYTES) : options.maxBytes, signal);
  } catch (err) {
    if (outer.aborted) throw err;
    throw new MessageError(MESSAGES.notFetched(whyNotFetched(err, signal.aborted)));
  }
  const fallbackTitle = new URL(finalUrl).hostname;
  if (type === 'application/pdf') {
    // A PDF cut short cannot be parsed: say so rather than hand over nothing.
    if (read.cut) throw new MessageError(MESSAGES.notFetched(cutWords(read.cut)));
    const text = (await attachments.extractText('page.pdf', read.data)).trim();
    if (!text) throw new MessageError(MESSAGES.noText);
    const name = decodeURIComponent(new URL(finalUrl).pathname.split('/').pop() || '') || fallbackTitle;
    return { title: plainText(name).slice(0, 200), url: finalUrl, text, ...cutOf(read.cut ? [read.cut] : []) };
  }
  if (type === 'text/plain') {
    const text = decode(read.data, contentType, false).trim();
    if (!text) throw new MessageError(MESSAGES.noText);
    return { title: fallbackTitle, url: finalUrl, text, ...cutOf(read.cut ? [read.cut] : []) };
  }
  const source = decode(read.data, contentType, true);
  const cuts: Cut[] = read.cut ? [read.cut] : [];
  // Text never outgrows its HTML: a page dense with text gives the model its share from its
  // beginning, so that is parsed first, and up to PARSE_MAX_CHARS only when it gave too little.
  const whole = Math.min(source.length, PARSE_MAX_CHARS);
  let parsed = Math.min(whole, Math.ceil(options.wantChars * FIRST_PARSE));
  let page = await attachments.pageOf(source.slice(0, parsed), finalUrl);
  if (page.text.length < options.wantChars && parsed < whole) {
    parsed = whole;
    page = await attachments.pageOf(source.slice(0, parsed), finalUrl);
  }
  if (parsed < source.length) cuts.push({ why: 'html', chars: parsed });
  if (!page.text) throw new MessageError(MESSAGES.noText);
  return { title: page.title || fallbackTitle, url: finalUrl, text: page.text, ...cutOf(cuts) };
}
