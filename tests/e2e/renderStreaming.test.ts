// StreamingMarkdown's streaming behaviour in real Chromium: animation-frame batching,
// finished blocks left untouched in the DOM, and open fences shown raw until they close.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdown } from '../../bench/render/generate.ts';
import { markdownDocument } from '../fixtures/markdownArbitrary.ts';
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
    // Ten updates in one task: nothing is applied synchronously.
    expect(result.before).toBe('First paragraph.');
    expect(result.syncMutations).toBe(0);
    // 200 updates in 200 tasks: at most one commit in any frame, however many frames the
    // machine managed, and the last text shows in the end.
    expect(result.maxCommitsInAFrame).toBe(1);
    expect(result.commits).toBeLessThanOrEqual(result.frames);
    expect(result.commits).toBeLessThan(result.updates);
    expect(result.final).toMatch(/^First paragraph\. one two three four five six seven eight nine ten w0 w1 .* w199$/);
  });

  it('never touches a finished block again, and shows an open fence raw until it closes', async () => {
    const result = await r.page.evaluate((doc) => window.__page.stability(doc), generateMarkdown(16 * 1024, 5));
    expect(result).toEqual({ sameNode: true, mutations: 0, pendingSeen: true, highlightedWhilePending: false, highlightedAfter: true });
  });

  // Bounded by count, with timeouts that fit a loaded 2-core machine (issue 40): each document
  // is re-rendered at every cut, so the work is fixed (at a load of 10 here: 97 s and 42 s).
  it('property: a streamed answer ends as the same DOM as the text rendered at once, however it was cut', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument(), async (text) => {
        const result = await r.page.evaluate((t) => window.__page.streamEquality(t), text);
        expect(result.mismatches).toEqual([]);
        // And, group wrappers aside, the same DOM as the whole document through the pipeline.
        expect(result.fresh).toBe(result.whole);
      }),
      { numRuns: 60, seed: 24 },
    );
  }, 240_000);

  it('a long answer over several groups, code, math and tables ends as the same DOM, however it was cut', async () => {
    const long = await r.page.evaluate((t) => window.__page.streamEquality(t), generateMarkdown(3 * 1024, 9));
    expect(long.mismatches).toEqual([]);
    expect(long.wholeSame).toBe(true);
  }, 240_000);

  it('lays blocks out in groups exactly as in one document (no margin collapses through a group)', async () => {
    // Tall enough that no group is off screen (they would be laid out at an estimated size).
    await r.page.setViewportSize({ width: 1024, height: 30_000 });
    try {
      // Each kind of block first in a group (the 17th, 33rd... block), after a paragraph and
      // after its own kind.
      const kinds = ['## Heading', '# Title', '- a\n\n- b', '1. x\n2. y', '- p\n\n  more of p', '$$\nx^2\n$$', '> quote\n>\n> - item', '> ## quoted heading', '---', '| a |\n| - |\n| 1 |', '```ts\nlet a\n```', 'Setext\n===', '#### Small'];
      const edges = ['Para.', ...kinds.flatMap((k) => [k, k, ...Array(14).fill('Para.')])].join('\n\n');
      for (const text of [generateMarkdown(16 * 1024, 7), `${'Para.\n\n'.repeat(15)}${edges}`]) {
        const { grouped, whole } = await r.page.evaluate((t) => window.__page.groupLayout(t), text);
        expect(grouped.length).toBeGreaterThan(40);
        expect(grouped).toEqual(whole);
      }
    } finally {
      await r.page.setViewportSize({ width: 1024, height: 768 });
    }
  });

  it('builds a finished block once: as it streams, no group, table, code block or typeset formula is taken out of the page and made again', async () => {
    // At 2,000 tokens a second a frame brings about 133 characters.
    const removed = await r.page.evaluate((t) => window.__page.removals(t, 133), generateMarkdown(24 * 1024, 3));
    for (const kind of ['div.md-group', 'div.md-code', 'table.', 'span.katex-display']) expect(removed[kind] ?? 0, kind).toBe(0);
    // What is rebuilt is a block that changed kind as it grew (a paragraph that became a list
    // or a table, an open fence that closed), a few elements at a time.
    expect(Object.values(removed).reduce((a, b) => a + b, 0)).toBeLessThan(400);
  });

  it('logged no page errors', () => {
    expect(r.errors).toEqual([]);
  });
});
