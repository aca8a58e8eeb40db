// The markdown renderer for model answers (streamed) and logs (finished).
//
// - The text is split into top-level blocks by an incremental splitter (blocks.ts): finished
//   blocks are never re-scanned nor re-parsed; each is a React.memo component keyed by its
//   position whose props are its text, so React skips it. Blocks are grouped by 16 (in a
//   `div.md-group`) so that one update compares a few dozen props, not one per block, and the
//   browser skips the groups off screen (`content-visibility: auto`): a frame's cost does not
//   grow with the answer (bench/appStream.ts).
// - Only the tail (the unfinished last block) is re-parsed on an update. It is rendered in the
//   group and under the key its block will keep, so a finished block's DOM is updated in place.
// - Math typeset by KaTeX is cached by formula (pipeline.ts): the tail's formulas are not
//   typeset again on every frame.
// - Text changes are applied at most once per animation frame (requestAnimationFrame), unless
//   `done` (the final text renders at once) or `sync` (the caller paces them: the chat).
// - While a code fence or a `$$` math block is open at the end of the text, that block is not
//   rendered as markdown: its raw text is shown in a `<pre class="md-pending">` (for a fence,
//   the code without the fence line), so code appears as it streams, un-highlighted. It is
//   rendered (highlighted, typeset) once it closes, or when `done`.
// - Link reference definitions are appended to the blocks that contain a `[`. A finished text
//   with footnote definitions is rendered as one document (footnotes need document scope);
//   while streaming, its footnote references stay literal until `done`.
// - A small cache of rendered finished blocks (by text, 1,000 entries, least recently used
//   first out) makes re-mounting a rendered answer cheap (navigating between logs).
// - What is parsed is bounded, since an answer, a log shared by someone else or a command's
//   output can be megabytes, and some markdown costs quadratic time in the parser (200 KB of
//   nested brackets in one paragraph: 86 s; 32 KB: 3 s) or much time per item (KaTeX: ~0.25 ms
//   a formula): a block longer than MAX_BLOCK_CHARS, and everything after the first
//   MAX_MARKDOWN_CHARS of a text, is shown as plain text, as written.
// - With `sliced` (the page), a finished block not in the cache is parsed only once its group
//   comes near the view, and for SLICE_MS per task at most (slices.ts), top first; the others
//   show their text as written until then, and are rendered once: a long text arriving at once
//   costs no long task. Then the groups not yet near are parsed in idle time, one a time, the
//   nearest to the view first, so find-in-page, copy and screen readers get the rendered text.
import { createContext, memo, useContext, useEffect, useMemo, useRef, useState, type ReactElement, type RefObject } from 'react';
import { BlockSplitter, GROUP_SIZE, type OpenKind } from './blocks.ts';
import { renderMarkdown } from './pipeline.ts';
import { later, NEAR_MARGIN, passHasTime, whenIdle } from './slices.ts';

const CACHE_LIMIT = 1000;
const NO_BLOCKS: readonly string[] = [];
const cache = new Map<string, ReactElement>();

/** The longest block parsed as markdown (a 16 KB block costs at most about a second). */
export const MAX_BLOCK_CHARS = 16 * 1024;
/** How much of a text is parsed as markdown; the blocks after it are plain text. */
export const MAX_MARKDOWN_CHARS = 128 * 1024;

/** A block shown as written (React escapes it), without parsing. */
const Plain = memo(function Plain({ text }: { text: string }) {
  return (
    <pre className="md-plain" data-plain="true">
      <code>{text}</code>
    </pre>
  );
});

/** A finished block's React elements, from the cache when this exact text was rendered before. */
function renderCached(markdown: string): ReactElement {
  const hit = cache.get(markdown);
  if (hit) {
    cache.delete(markdown);
    cache.set(markdown, hit);
    return hit;
  }
  const element = renderMarkdown(markdown);
  cache.set(markdown, element);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return element;
}

/** Empties the block cache (benchmarks: every run starts cold). */
export function clearMarkdownCache(): void {
  cache.clear();
}

const withDefinitions = (text: string, definitions: string) =>
  definitions && text.includes('[') ? `${text}\n\n${definitions}` : text;

const Sliced = createContext(false);
/** Whether the group has come near the view (with `sliced`; always true without). */
const Near = createContext(true);

/** Keeps a finished block's elements in the cache (re-mounting a rendered answer is cheap). */
function remember(markdown: string, element: ReactElement): void {
  if (cache.has(markdown)) return;
  cache.set(markdown, element);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
}

/** A block's markdown rendered. With `sliced`, a finished one not in the cache is parsed once
 *  its group is near the view, now if this pass has time left, else in a later slice; its text
 *  is shown as written meanwhile. One component for the tail and the finished block, and the
 *  tail's last elements kept, so a tail that finishes as it was is not rendered again. The
 *  growing tail does not go through the cache (it would only evict finished blocks). */
function Parsed({ markdown, final }: { markdown: string; final: boolean }) {
  const sliced = useContext(Sliced) && final;
  const near = useContext(Near);
  const [ready, setReady] = useState<{ markdown: string; element: ReactElement } | null>(null);
  const last = useRef(ready);
  const kept = [ready, last.current].find((r) => r?.markdown === markdown)?.element;
  if (kept && final) remember(markdown, kept);
  const deferred = !kept && sliced && !cache.has(markdown) && !(near && passHasTime());
  const element = kept ?? (deferred ? null : final ? renderCached(markdown) : renderMarkdown(markdown));
  useEffect(() => {
    if (element) last.current = { markdown, element };
  });
  useEffect(() => {
    if (!deferred || !near) return;
    return later(() => setReady({ markdown, element: renderCached(markdown) }));
  }, [deferred, near, markdown]);
  return (
    element ?? (
      <div className="md-deferred" data-deferred="true">
        {markdown}
      </div>
    )
  );
}

/** How far an element is from the view (px; 0 within it). */
function distanceFromView(el: HTMLElement): number {
  const { top, bottom } = el.getBoundingClientRect();
  return top > innerHeight ? top - innerHeight : bottom < 0 ? -bottom : 0;
}

/** Whether a group is near the view, from the start (`eager`), once an IntersectionObserver
 *  sees it within NEAR_MARGIN, or when idle time comes to it (nearest the view first); once
 *  near, it stays near. Unmounted (another text opened), it is no longer waited for. */
function useNear(eager: boolean): [RefObject<HTMLDivElement | null>, boolean] {
  const sliced = useContext(Sliced);
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(eager || !sliced);
  useEffect(() => {
    if (near) return;
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: NEAR_MARGIN });
    observer.observe(el);
    const cancel = whenIdle(
      () => setNear(true),
      () => distanceFromView(el),
    );
    return () => {
      observer.disconnect();
      cancel();
    };
  }, [near]);
  return [ref, near];
}

/** One block. */
const Block = memo(function Block({ text, definitions, final, plain = false }: { text: string; definitions: string; final: boolean; plain?: boolean }) {
  if (plain || text.length > MAX_BLOCK_CHARS) return <Plain text={text} />;
  const markdown = withDefinitions(text, definitions);
  return <Parsed markdown={markdown} final={final} />;
});

/**
 * A group of blocks (GROUP_SIZE at most), and the unfinished tail when it belongs to this group.
 * Finished groups are skipped by React (memo, same array) and by the browser while off screen
 * (`content-visibility: auto` in markdown.css): a stream's cost per frame does not grow with
 * the answer. The tail is rendered where its block will stay, under the key it will keep, so
 * that when it is finished React updates its DOM in place instead of building it again.
 */
const Group = memo(function Group({ blocks, definitions, plainFrom, tail, eager }: { blocks: readonly string[]; definitions: string; plainFrom: number; tail?: ReactElement; eager: boolean }) {
  const [ref, near] = useNear(eager);
  return (
    <div className="md-group" ref={ref}>
      <Near.Provider value={near}>
        {/* One array with the tail: keys only match within the same array. */}
        {[...blocks.map((text, i) => <Block key={i} text={text} definitions={definitions} final plain={i >= plainFrom} />), tail]}
      </Near.Provider>
    </div>
  );
});

/** The raw text of an open fence or math block. */
function Pending({ text, open }: { text: string; open: OpenKind }) {
  const newline = text.indexOf('\n');
  const first = newline === -1 ? text : text.slice(0, newline);
  // A block that starts with the opener shows only its body; anything else (a list or quote
  // around the fence) shows as written.
  const opensHere = open === 'fence' ? /^ {0,3}(`{3,}|~{3,})/.test(first) : /^ {0,3}\$\$/.test(first);
  const body = opensHere ? (newline === -1 ? '' : text.slice(newline + 1)) : text;
  return (
    <pre className="md-pending" data-pending={open}>
      <code>{body}</code>
    </pre>
  );
}

/** The text to show: the latest text at most once per animation frame, or at once. */
function useFrameText(text: string, immediate: boolean): string {
  const [shown, setShown] = useState(text);
  const latest = useRef(text);
  const frame = useRef(0);
  useEffect(() => {
    latest.current = text;
    if (immediate || frame.current || shown === text) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setShown(latest.current);
    });
  });
  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    },
    [],
  );
  return immediate ? text : shown;
}

export interface StreamingMarkdownProps {
  /** The markdown so far. */
  text: string;
  /** The stream has ended: render everything now, open fences included. */
  done: boolean;
  /** Render every text change synchronously (no animation-frame batching of its own): the
   *  caller already hands over at most one change a frame (the chat's frameBatcher; batching
   *  again cost a second render a frame and a frame's delay), or times or inspects each update
   *  (benchmarks and tests). */
  sync?: boolean;
  /** Parse finished blocks in time slices (slices.ts) instead of all in one render: the page's
   *  view of answers and logs. Off, every block is in the DOM when the render returns. */
  sliced?: boolean;
  className?: string;
}

export function StreamingMarkdown({ sliced = false, ...props }: StreamingMarkdownProps) {
  return (
    <Sliced.Provider value={sliced}>
      <Blocks {...props} />
    </Sliced.Provider>
  );
}

function Blocks({ text, done, sync = false, className }: Omit<StreamingMarkdownProps, 'sliced'>) {
  const shown = useFrameText(text, done || sync);
  const splitter = useRef<BlockSplitter>(null);
  splitter.current ??= new BlockSplitter();
  // A text that does not extend the last one (another log) is a new generation: with `sliced`,
  // its groups are new, so only those near the view now are parsed (not all that were before).
  const generation = useRef({ text: '', count: 0 });
  const split = useMemo(() => {
    if (!shown.startsWith(generation.current.text)) generation.current.count++;
    generation.current.text = shown;
    return splitter.current!.update(shown);
  }, [shown]);
  const prefix = useContext(Sliced) ? `${generation.current.count}:` : '';
  const classes = className ? `markdown ${className}` : 'markdown';
  // One document (footnotes need it) only when no part of it is past the bounds.
  if (done && split.footnotes && shown.length <= MAX_MARKDOWN_CHARS && split.tail.length <= MAX_BLOCK_CHARS && split.blocks.every((b) => b.length <= MAX_BLOCK_CHARS)) {
    return (
      <div className={classes}>
        <Block text={shown} definitions="" final />
      </div>
    );
  }
  const { groups, tail, open, definitions } = split;
  // The first block of each group that starts past MAX_MARKDOWN_CHARS of parsed text
  // (blocks.length when none); blocks too long to parse do not count.
  let chars = 0;
  const plainFrom = groups.map((blocks) => {
    let from = blocks.length;
    blocks.forEach((text, i) => {
      if (chars >= MAX_MARKDOWN_CHARS && from === blocks.length) from = i;
      if (text.length <= MAX_BLOCK_CHARS) chars += text.length;
    });
    return from;
  });
  // The tail joins the last group while it has room, else starts the next one.
  const last = groups.at(-1);
  const tailGroup = last && last.length < GROUP_SIZE ? groups.length - 1 : groups.length;
  const tailKey = tailGroup === groups.length ? 0 : last!.length;
  const tailElement = !tail ? undefined : open && !done ? (
    <Pending key={tailKey} text={tail} open={open} />
  ) : (
    <Block key={tailKey} text={tail} definitions={open ? '' : definitions} final={done} plain={chars >= MAX_MARKDOWN_CHARS} />
  );
  return (
    <div className={classes} data-streaming={done ? undefined : 'true'}>
      {[
        ...groups.map((blocks, i) => <Group key={prefix + i} blocks={blocks} definitions={definitions} plainFrom={plainFrom[i]!} tail={i === tailGroup ? tailElement : undefined} eager={i === 0 || i === tailGroup} />),
        tailElement && tailGroup === groups.length && <Group key={prefix + tailGroup} blocks={NO_BLOCKS} definitions={definitions} plainFrom={0} tail={tailElement} eager />,
      ]}
    </div>
  );
}

/** A finished text (a log): the same renderer, everything rendered at once. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return <StreamingMarkdown text={text} done className={className} />;
}
