// A minimal, self-contained HTML page for the answers of e-mail links, in the reader's
// language (its direction too). Text is escaped.
import { isRtl } from '../../../src/core/index.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function htmlPage(lang: string, title: string, body: string, code?: string): string {
  return `<!doctype html><html lang="${escape(lang)}" dir="${isRtl(lang) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>${escape(title)}</h1><p>${escape(body)}</p>${code ? `<pre style="font-size:1.4rem;padding:.5rem;background:#f2f3f5">${escape(code)}</pre>` : ''}<p><a href="/">shellchat</a></p></body></html>`;
}
