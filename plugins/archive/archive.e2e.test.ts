// `:session import` and `:session export` in Chromium against the real built app and server:
// the picker opens (a zip or JSON accepted, several files at once), a progress line shows while
// the file is sent, the report lists each conversation and the summary; the export downloads.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from '../../tests/e2e/support.ts';
import { MESSAGES } from './common/messages.ts';
import { branchy, chatgptZip, claudeConversation, json, noSlug, simple } from './fixtures/exports.ts';
import type { Browser } from 'playwright-core';

const PW = 'correct-horse-1';

/** Records every text the output area shows from now on (progress lines come and go). */
async function recordOutputs(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __outputs: string[] };
    w.__outputs = [];
    const el = document.querySelector('[data-testid=output]')!;
    new MutationObserver(() => w.__outputs.push(el.textContent ?? '')).observe(el, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __outputs: string[] }).__outputs);
}

describe.skipIf(!HAS_CHROME)('export and import in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('imports through the picker with progress and a report, then downloads the export', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, `:user add porter porter@example.org ${PW}`);
    expect(await run(page, `:login porter ${PW}`)).toBe('Logged in as porter.');

    // A ChatGPT zip large enough for the progress to show, and a Claude JSON, picked together.
    const many = Array.from({ length: 300 }, (_, i) => simple(1000 + i, 'lorem ipsum '.repeat(200)));
    const zip = Buffer.from(chatgptZip([branchy, noSlug, ...many], 100));
    let accept = '';
    let multiple = false;
    page.once('filechooser', async (chooser) => {
      accept = (await chooser.element().getAttribute('accept')) ?? '';
      multiple = chooser.isMultiple();
      await chooser.setFiles([
        { name: 'chatgpt-export.zip', mimeType: 'application/zip', buffer: zip },
        { name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(json([claudeConversation])) },
      ]);
    });
    const seen = await recordOutputs(page);
    const report = await run(page, ':session import');
    expect(accept).toContain('.zip');
    expect(accept).toContain('.json');
    expect(multiple).toBe(true);
    expect((await seen()).some((text) => /Importing chatgpt-export\.zip: \d+%/.test(text))).toBe(true);
    // Then, while the server writes them: the conversations done so far, streamed.
    expect((await seen()).some((text) => /Importing chatgpt-export\.zip: \d+ conversations done/.test(text))).toBe(true);
    expect(report).toContain('Monads and pictures');
    expect(report).toContain('Rust lifetimes');
    expect(report).toContain(MESSAGES.summary(302, 0, 0).text);
    expect(report).toContain(MESSAGES.summary(1, 0, 0).text);

    // Again: nothing added, each said to be there already.
    page.once('filechooser', (chooser) => chooser.setFiles({ name: 'again.json', mimeType: 'application/json', buffer: Buffer.from(json([branchy])) }));
    const again = await run(page, ':session import');
    expect(again).toContain('Already there');
    expect(again).toContain(MESSAGES.summary(0, 1, 0).text);

    // Not an export: refused with the reason.
    page.once('filechooser', (chooser) => chooser.setFiles({ name: 'photo.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":1}') }));
    expect(await run(page, ':session import')).toContain(MESSAGES.notArchive.text);

    // Cancelled: nothing sent.
    page.once('filechooser', (chooser) => chooser.setFiles([]));
    expect(await run(page, ':session import')).toContain(MESSAGES.noSelection.text);

    // The export downloads as a file.
    const download = page.waitForEvent('download');
    expect(await run(page, ':session export --all')).toContain('Exported to shellchat-all-');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^shellchat-all-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(readFileSync((await file.path())!, 'utf8')) as { conversations: { title: string }[] };
    expect(exported.conversations).toHaveLength(303);
    const markdown = page.waitForEvent('download');
    await run(page, ':session export --all --format md notes.md');
    expect((await markdown).suggestedFilename()).toBe('notes.md');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
