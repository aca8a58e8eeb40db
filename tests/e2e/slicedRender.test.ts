// A long answer arriving at once, or a long log opened (the briefs "bigchunk" and "idle"), in
// real Chromium: the page's renderer (`sliced`) parses the blocks near the view first, in
// slices of a few blocks each instead of one task for the whole text, then the rest in idle
// time, and ends as the same DOM as the text rendered at once. Counts, not times: they hold on
// a loaded machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdown } from '../../bench/render/generate.ts';
import { openRenderPage, type RenderPage } from './renderPage.ts';
import { HAS_CHROME } from './support.ts';

describe.skipIf(!HAS_CHROME)('sliced rendering of a long text', () => {
  let r: RenderPage;
  beforeAll(async () => {
    r = await openRenderPage();
  });
  afterAll(async () => {
    await r?.close();
  });

  it('parses a 48 KB text near the view first, a few blocks a task, then the rest in idle time without scrolling, and ends as the one-shot DOM', async () => {
    const opened = await r.page.evaluate((t) => window.__sliced.open(t), generateMarkdown(48 * 1024, 4));
    expect(opened.blocks).toBeGreaterThan(150);
    // The first render did not parse everything: most blocks wait, as written.
    expect(opened.atMount.deferred).toBeGreaterThan(opened.blocks / 2);
    // Those near the view were parsed in later tasks, none of which took every block.
    expect(opened.stats.slices).toBeGreaterThan(0);
    expect(opened.stats.mostJobs).toBeLessThan(opened.blocks / 4);
    // Left alone at the top (no scrolling), the rest is parsed in idle time, a group at a
    // time (designed since "idle": before it, the groups far below waited, as written, until
    // scrolled near, and screen readers, find-in-page and copy read raw markdown).
    const idle = await r.page.evaluate(() => window.__sliced.idle());
    expect(idle.done).toBe(true);
    expect(idle.scrollY).toBe(0);
    expect(idle.left.deferred).toBe(0);
    expect(idle.stats.idleRuns).toBeGreaterThan(opened.atMount.groups / 2);
    // Still a few blocks a task: no slice and no render pass parsed more than a quarter of it.
    expect(idle.stats.slices).toBeGreaterThan(10);
    expect(idle.stats.mostJobs).toBeLessThan(opened.blocks / 4);
    expect(idle.stats.mostInPass).toBeGreaterThan(0);
    expect(idle.stats.mostInPass).toBeLessThan(opened.blocks / 4);
    expect(idle.same).toBe(true);
    // A reader scrolling through it afterwards finds it all rendered, and as the one-shot DOM.
    const finished = await r.page.evaluate(() => window.__sliced.finish());
    expect(finished.views).toBeGreaterThan(10);
    expect(finished.left.deferred).toBe(0);
    expect(finished.same).toBe(true);
  }, 240_000);

  it('opening another long text after reading one to its end leaves the new one waiting beyond the view, then parses it in idle time', async () => {
    await r.page.evaluate((t) => window.__sliced.open(t), generateMarkdown(32 * 1024, 5));
    const next = await r.page.evaluate((t) => window.__sliced.replace(t), generateMarkdown(32 * 1024, 6));
    // The last text's groups were all near; the new one's are new, and wait (all but the first
    // and the last, which holds the tail).
    expect(next.idleWaiting).toBeGreaterThanOrEqual(next.groups - 2);
    expect(next.idleWaiting).toBeLessThan(next.groups);
    const idle = await r.page.evaluate(() => window.__sliced.idle());
    expect(idle.done).toBe(true);
    expect(idle.same).toBe(true);
  }, 240_000);

  it("opening another text while one is parsed in idle time drops the old one's idle work", async () => {
    await r.page.evaluate((t) => window.__sliced.open(t, false), generateMarkdown(96 * 1024, 7));
    const next = await r.page.evaluate((t) => window.__sliced.switchTo(t), generateMarkdown(8 * 1024, 8));
    // The old text still had more idle work waiting than the new one has groups...
    expect(next.before).toBeGreaterThan(next.groups);
    // ...and none of it is left after the switch: only the new groups wait, and are run.
    expect(next.after).toBeLessThan(next.groups);
    expect(next.done).toBe(true);
    // (A group the observer sees near first is not run as idle work.)
    expect(next.idleRuns).toBeLessThanOrEqual(next.after);
    const finished = await r.page.evaluate(() => window.__sliced.finish());
    expect(finished.same).toBe(true);
  }, 240_000);

  it('a streamed answer rendered sliced ends as the one-shot DOM', async () => {
    await r.page.evaluate((t) => window.__sliced.stream(t, 133), generateMarkdown(24 * 1024, 3));
    const finished = await r.page.evaluate(() => window.__sliced.finish());
    expect(finished.left.deferred).toBe(0);
    expect(finished.same).toBe(true);
  }, 240_000);

  it('logged no page errors', () => {
    expect(r.errors).toEqual([]);
  });
});
