// A minimal, self-contained HTML page for the answers of e-mail links, in the reader's
// language (its direction too). Text is escaped. No script: a page that acts does so by a
// form the person submits (a mail scanner that opens the link submits nothing).
import type { Context } from 'hono';
import { isRtl } from '../../../src/core/index.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export interface PageExtras {
  /** Shown in a box of its own (a new password). */
  code?: string;
  /** A button that POSTs these fields to `action` (same origin). */
  form?: { action: string; fields: Record<string, string>; button: string };
}

export function htmlPage(lang: string, title: string, body: string, extras: PageExtras = {}): string {
  const { code, form } = extras;
  const fields = form ? Object.entries(form.fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('') : '';
  const formHtml = form
    ? `<form method="post" action="${escape(form.action)}">${fields}<button type="submit" style="font-size:1.1rem;padding:.4rem 1rem">${escape(form.button)}</button></form>`
    : '';
  return `<!doctype html><html lang="${escape(lang)}" dir="${isRtl(lang) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>${escape(title)}</h1><p>${escape(body)}</p>${code ? `<pre style="font-size:1.4rem;padding:.5rem;background:#f2f3f5">${escape(code)}</pre>` : ''}${formHtml}<p><a href="/">shellchat</a></p></body></html>`;
}

/**
 * Headers of a link's page: never cached (it may show a password), and `strict-origin`
 * instead of the app's `no-referrer`, under which a browser sends `Origin: null` with the form's
 * POST and the origin check (src/server/http/origin.ts) refuses it; the token in the page's
 * URL still never leaves in a Referer.
 */
export function pageHeaders(c: Context): void {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'strict-origin');
}

/** A browser opening a link (it asks for HTML) rather than an API client. */
export const wantsHtml = (c: Context): boolean => /\btext\/html\b/i.test(c.req.header('accept') ?? '');
