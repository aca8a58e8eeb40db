// The renderer page's checks of `sliced` rendering (StreamingMarkdown, slices.ts): a long text
// rendered at once is parsed near the view first, in slices, the rest in idle time, and ends as
// the same DOM.
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { clearMarkdownCache, Markdown, splitBlocks, StreamingMarkdown } from '../../../src/shell/markdown/index.ts';
import { pendingIdle, pendingSlices, sliceStats } from '../../../src/shell/markdown/slices.ts';

declare global {
  interface Window {
    __sliced: typeof sliced;
  }
}

const stage = document.getElementById('stage')!;
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
let current: { root: Root; el: HTMLElement; text: string } | undefined;

/** Until the observers have run and no slice is left (a few frames with nothing pending). */
async function quiet(): Promise<void> {
  for (let calm = 0; calm < 5; ) {
    await frame();
    calm = pendingSlices() ? 0 : calm + 1;
  }
}

/** Scrolls through `el` a view at a time, letting each settle; returns how many views it took. */
async function readThrough(el: HTMLElement): Promise<number> {
  let views = 0;
  await quiet();
  // Until its end is in view, or the page ends (the page may end a fraction of a pixel below).
  for (let moved = true; moved && el.getBoundingClientRect().bottom > innerHeight + 1; views++) {
    const before = scrollY;
    scrollBy(0, innerHeight);
    await quiet();
    moved = scrollY !== before;
  }
  return views;
}

/** Until nothing waits (no block as written, no slice, no idle job), without scrolling; false
 *  if `ms` pass first. */
async function allParsed(el: HTMLElement, ms = 120_000): Promise<boolean> {
  const end = performance.now() + ms;
  while (el.querySelector('[data-deferred]') || pendingSlices() || pendingIdle()) {
    if (performance.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Whether `el`'s DOM is <Markdown>'s for `text` (the text rendered at once, not sliced). */
function sameAsMarkdown(el: HTMLElement, text: string): boolean {
  const fresh = document.createElement('div');
  const freshRoot = createRoot(fresh);
  flushSync(() => freshRoot.render(<Markdown text={text} />));
  const same = fresh.innerHTML === el.innerHTML;
  freshRoot.unmount();
  return same;
}

const counts = (el: HTMLElement) => ({
  deferred: el.querySelectorAll('[data-deferred]').length,
  groups: el.querySelectorAll('.md-group').length,
  groupsWaiting: [...el.querySelectorAll('.md-group')].filter((g) => g.querySelector(':scope > [data-deferred]')).length,
});

export const sliced = {
  /** Renders `text` at once (a log opened), sliced, at the top of the page, and lets it settle
   *  (until no slice is left; idle work may still be waiting) unless `settle` is false. */
  async open(text: string, settle = true): Promise<{ blocks: number; atMount: ReturnType<typeof counts>; settled: ReturnType<typeof counts>; stats: typeof sliceStats }> {
    clearMarkdownCache();
    Object.assign(sliceStats, { slices: 0, mostJobs: 0, deferred: 0, mostInPass: 0, idleRuns: 0 });
    scrollTo(0, 0);
    const el = document.createElement('div');
    stage.prepend(el);
    const root = createRoot(el);
    flushSync(() => root.render(<StreamingMarkdown text={text} done sliced />));
    const atMount = counts(el);
    if (settle) await quiet();
    current = { root, el, text };
    const split = splitBlocks(text);
    return { blocks: split.blocks.length + (split.tail ? 1 : 0), atMount, settled: counts(el), stats: { ...sliceStats } };
  },

  /** Waits, without scrolling, until the last text is all parsed; then whether its DOM is
   *  <Markdown>'s, and where the page is scrolled to. */
  async idle(): Promise<{ done: boolean; same: boolean; left: ReturnType<typeof counts>; stats: typeof sliceStats; scrollY: number }> {
    const { el, text } = current!;
    const done = await allParsed(el);
    return { done, same: sameAsMarkdown(el, text), left: counts(el), stats: { ...sliceStats }, scrollY };
  },

  /** Reads the last text through to its end, then opens `next` in its place at the top (the
   *  next log): its groups, and how many of them wait for idle time right after its render. */
  async replace(next: string): Promise<{ groups: number; idleWaiting: number }> {
    const { root, el } = current!;
    await readThrough(el);
    scrollTo(0, 0);
    flushSync(() => root.render(<StreamingMarkdown text={next} done sliced />));
    current!.text = next;
    return { groups: counts(el).groups, idleWaiting: pendingIdle() };
  },

  /** Opens `next` in place of the last text at once, its idle work unfinished: the idle jobs
   *  waiting before and after, the new text's groups, and the idle jobs run until it is parsed. */
  async switchTo(next: string): Promise<{ before: number; after: number; groups: number; idleRuns: number; done: boolean }> {
    const { root, el } = current!;
    const before = pendingIdle();
    flushSync(() => root.render(<StreamingMarkdown text={next} done sliced />));
    current!.text = next;
    const after = pendingIdle();
    sliceStats.idleRuns = 0;
    const done = await allParsed(el);
    return { before, after, groups: counts(el).groups, idleRuns: sliceStats.idleRuns, done };
  },

  /** Streams `text` sliced, `chunk` characters an update, then ends it (an answer). */
  async stream(text: string, chunk: number): Promise<void> {
    clearMarkdownCache();
    scrollTo(0, 0);
    const el = document.createElement('div');
    stage.prepend(el);
    const root = createRoot(el);
    for (let end = chunk; end < text.length; end += chunk) flushSync(() => root.render(<StreamingMarkdown text={text.slice(0, end)} done={false} sync sliced />));
    flushSync(() => root.render(<StreamingMarkdown text={text} done sliced />));
    current = { root, el, text };
  },

  /** Scrolls through the last text a view at a time, as a reader would, then: whether its DOM
   *  is <Markdown>'s (the text rendered at once, not sliced). */
  async finish(): Promise<{ same: boolean; left: ReturnType<typeof counts>; stats: typeof sliceStats; views: number }> {
    const { root, el, text } = current!;
    const views = await readThrough(el);
    const left = counts(el);
    const same = sameAsMarkdown(el, text);
    root.unmount();
    el.remove();
    return { same, left, stats: { ...sliceStats }, views };
  },
};

