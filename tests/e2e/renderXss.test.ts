// Stored-XSS corpus against the markdown renderer and the shell's plain-text surfaces, in
// real Chromium, on a page without CSP (security.md §1A and test plan #1). Every payload
// calls __xss(<n>) or alert(<n>); the page counts calls, and the DOM is scanned for script
// elements, event-handler attributes, javascript:/data:/vbscript: URLs and CSS url().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRenderPage, type RenderPage } from './renderPage.ts';
import { xssPayloads, urlPayloads, type Payload } from './renderXssPayloads.ts';
import { HAS_CHROME } from './support.ts';

const payloads = xssPayloads();
const BATCH = 100;
const batches = (list: Payload[]) => Array.from({ length: Math.ceil(list.length / BATCH) }, (_, i) => list.slice(i * BATCH, (i + 1) * BATCH));

describe.skipIf(!HAS_CHROME)('renderer XSS corpus', () => {
  let r: RenderPage;
  beforeAll(async () => {
    r = await openRenderPage();
  });
  afterAll(async () => {
    await r?.close();
  });

  /** Lets pending loads and error events fire, then returns what executed and what the DOM holds. */
  async function outcome(): Promise<{ executed: string[]; problems: string[] }> {
    await r.page.waitForTimeout(150);
    const executed = [...(await r.page.evaluate(() => window.__page.executed())), ...r.dialogs];
    const problems = await r.page.evaluate(() => window.__page.scan());
    await r.page.evaluate(() => window.__page.clear());
    return { executed, problems };
  }

  it('has at least 500 distinct payloads', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(500);
    expect(new Set(payloads.map((p) => p.text)).size).toBe(payloads.length);
  });

  it('renders every payload through <Markdown> without executing anything', async () => {
    for (const batch of batches(payloads)) {
      await r.page.evaluate((b) => window.__page.whole(b), batch);
      expect(await outcome()).toEqual({ executed: [], problems: [] });
    }
  });

  it('streams every payload through <StreamingMarkdown> in 1-7 character chunks (every partial state rendered)', async () => {
    for (const batch of batches(payloads)) {
      await r.page.evaluate((b) => window.__page.streamed(b, 0), batch);
      expect(await outcome()).toEqual({ executed: [], problems: [] });
    }
  });

  it('streams payloads with the animation-frame batching, as the app does', async () => {
    for (const batch of batches(payloads)) {
      await r.page.evaluate((b) => window.__page.framed(b, 5), batch);
      expect(await outcome()).toEqual({ executed: [], problems: [] });
    }
  });

  it('shows payloads as text in OutputView (text, error, list, table, json, markdown), Previews and Welcome', async () => {
    const urls = urlPayloads();
    for (const batch of batches(payloads)) {
      await r.page.evaluate(([b, u]) => window.__page.surfaces(b, u), [batch, urls] as const);
      const text = await r.page.evaluate(() => window.__page.text());
      // The plain-text surfaces show the payload verbatim (as text, not markup).
      expect(text).toContain(batch[0]!.text.split('\n')[0]);
      expect(await outcome()).toEqual({ executed: [], problems: [] });
    }
  });

  it('the detector works: the same payloads put in with innerHTML execute and are flagged', async () => {
    await r.page.evaluate((b) => window.__page.unsafe(b), payloads.slice(0, BATCH));
    await r.page.waitForFunction(() => window.__page.executed().length > 0);
    const { executed, problems } = await outcome();
    // Every handler that fires on its own (onerror, onload, ontoggle...) without a click.
    expect(new Set(executed).size).toBeGreaterThanOrEqual(10);
    expect(problems.length).toBeGreaterThanOrEqual(50);
    console.log(`[xss control] innerHTML: ${new Set(executed).size} of ${BATCH} payloads executed, ${problems.length} DOM findings`);
    await r.page.evaluate(() => (window.__xssIds.length = 0));
    r.dialogs.length = 0;
    // Errors thrown by the unsafely inserted payloads themselves (frames, bad scripts).
    r.errors.length = 0;
  });

  it('logged no page errors', () => {
    expect(r.errors).toEqual([]);
  });
});
