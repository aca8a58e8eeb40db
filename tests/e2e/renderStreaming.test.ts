// StreamingMarkdown's streaming behaviour in real Chromium: animation-frame batching,
// finished blocks left untouched in the DOM, and open fences shown raw until they close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdown } from '../../bench/render/generate.ts';
import { openRenderPage, type RenderPage } from './renderPage.ts';
import { HAS_CHROME } from './support.ts';

describe.skipIf(!HAS_CHROME)('StreamingMarkdown in the browser', () => {
  let r: RenderPage;
  beforeAll(async () => {
    r = await openRenderPage();
  });
  afterAll(async () => {
    await r?.close();
  });

  it('applies text changes at most once per animation frame', async () => {
    const result = await r.page.evaluate(() => window.__page.batching());
    expect(result.before).toBe('First paragraph.');
    expect(result.syncMutations).toBe(0);
    expect(result.afterFrame.replace(/\s+/g, ' ').trim()).toBe('First paragraph. one two three four five six seven eight nine ten');
  });

  it('never touches a finished block again, and shows an open fence raw until it closes', async () => {
    const result = await r.page.evaluate((doc) => window.__page.stability(doc), generateMarkdown(16 * 1024, 5));
    expect(result).toEqual({ sameNode: true, mutations: 0, pendingSeen: true, highlightedWhilePending: false, highlightedAfter: true });
  });

  it('logged no page errors', () => {
    expect(r.errors).toEqual([]);
  });
});
