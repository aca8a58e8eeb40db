// Issue 40: reading what came earlier while an answer streams is not pulled down. The reader
// scrolls back into a long answer with the mouse wheel while its end still grows below; what is
// under their eyes stays where it is until they scroll again, and then moves by their scroll alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { generateMarkdown } from '../../bench/render/generate.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, startServer, type RunningServer } from './support.ts';

/** The top of the element a third of the way down the view (chosen once), and the page's scroll. */
const place = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __anchor?: Element };
    w.__anchor ??= document.elementFromPoint(innerWidth / 2, innerHeight / 3)!;
    return { top: w.__anchor.getBoundingClientRect().top, scroll: document.scrollingElement!.scrollTop, connected: w.__anchor.isConnected };
  });

/** Until the page's scroll has not changed for a few frames (a wheel scrolls smoothly). */
const settled = (page: Page) =>
  page.evaluate(async () => {
    const raf = () => new Promise((r) => requestAnimationFrame(r));
    for (let last = -1, still = 0; still < 5; await raf()) {
      const now = document.scrollingElement!.scrollTop;
      still = now === last ? still + 1 : 0;
      last = now;
    }
  });

describe.skipIf(!HAS_CHROME)('reading earlier text during a stream', () => {
  let fake: FakeOpenAI;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-demo'] });
    [server, browser] = await Promise.all([startServer({ MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('is not pulled down: the text under the reader stays put while the answer grows below', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    // 24 KB at once (screens of earlier text), then a paragraph a word at a time for ~10 s.
    const words = Array.from({ length: 500 }, (_, i) => `word${i} `);
    fake.reply({ chunks: [`${generateMarkdown(24 * 1024)}\n\n`, ...words], delayMs: 20 });
    await page.getByTestId('input').fill('Tell me everything');
    await page.getByTestId('input').press('Enter');
    await page.waitForFunction(() => document.scrollingElement!.scrollHeight > 4 * innerHeight, undefined, { timeout: 10_000 });
    await page.mouse.move(512, 400);
    await page.mouse.wheel(0, 1500);
    await settled(page);
    const start = await place(page);
    // The streamed words shown so far: the text's length is no measure, as the earlier blocks,
    // parsed in idle time (sliced rendering), lose their markdown's marks and get shorter.
    const shown = () => page.getByTestId('output').evaluate((el) => el.textContent!.match(/\bword\d+\b/g)?.length ?? 0);
    const shownAtStart = await shown();
    // Reading for a second and a half: the answer grows below, the view does not move.
    for (let i = 0; i < 15; i++) {
      await page.waitForTimeout(100);
      expect(await place(page)).toMatchObject({ top: start.top, scroll: start.scroll, connected: true });
    }
    // Then up a notch: the text moves by the wheel's scroll and nothing else.
    await page.mouse.wheel(0, -100);
    await settled(page);
    const after = await place(page);
    expect(after.top - start.top).toBe(start.scroll - after.scroll);
    expect(after.scroll).toBeLessThan(start.scroll);
    await page.waitForTimeout(300);
    expect(await place(page)).toMatchObject({ top: after.top, scroll: after.scroll, connected: true });
    // All of it while the answer was still coming, and growing.
    expect(await page.locator('.shell').getAttribute('data-generating')).toBe('true');
    expect(await shown()).toBeGreaterThan(shownAtStart);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
