// A long answer arriving at once, or a long log opened (the brief "bigchunk"), in real
// Chromium: the page's renderer (`sliced`) parses only the blocks near the view, in slices of
// a few blocks each instead of one task for the whole text, and ends as the same DOM as the
// text rendered at once. Counts, not times: they hold on a loaded machine.
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

  it('parses a 48 KB text near the view only, a few blocks a task, and ends as the one-shot DOM once all of it is seen', async () => {
    const opened = await r.page.evaluate((t) => window.__sliced.open(t), generateMarkdown(48 * 1024, 4));
    expect(opened.blocks).toBeGreaterThan(150);
    // The first render did not parse everything: most blocks wait, as written.
    expect(opened.atMount.deferred).toBeGreaterThan(opened.blocks / 2);
    // Settled with a 768 px view at the top: the groups far below are still waiting...
    expect(opened.settled.groupsWaiting).toBeGreaterThan(opened.settled.groups / 2);
    // ...and those near it were parsed in later tasks, none of which took every block.
    expect(opened.stats.slices).toBeGreaterThan(0);
    expect(opened.stats.mostJobs).toBeLessThan(opened.blocks - opened.settled.deferred);
    // A reader scrolling through it a view at a time: each group is parsed as it comes near.
    const finished = await r.page.evaluate(() => window.__sliced.finish());
    expect(finished.views).toBeGreaterThan(10);
    expect(finished.left.deferred).toBe(0);
    // In many slices: no task parsed the text whole.
    expect(finished.stats.slices).toBeGreaterThan(10);
    expect(finished.stats.mostJobs).toBeLessThan(opened.blocks / 4);
    expect(finished.same).toBe(true);
  }, 240_000);

  it('opening another long text after reading one to its end parses only what is near the view of the new one', async () => {
    await r.page.evaluate((t) => window.__sliced.open(t), generateMarkdown(32 * 1024, 5));
    const next = await r.page.evaluate((t) => window.__sliced.replace(t), generateMarkdown(32 * 1024, 6));
    expect(next.groupsWaiting).toBeGreaterThan(next.groups / 2);
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
