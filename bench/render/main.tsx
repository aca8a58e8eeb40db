// The B1 streaming render benchmark page (performance.md §7 B1). One page, three renderers fed
// the same prefixes of the same generated answer:
//   naive: the whole text through the same pipeline on every update (renderMarkdown(text));
//   ours:  <StreamingMarkdown sync> (block memo, tail re-parse, pending fences);
//   plain: the text in a <pre> (the floor: no parsing at all).
// Each update is timed with performance.now() around flushSync(root.render(...)) followed by a
// forced layout (reading offsetHeight), so the React commit, DOM work and style/layout of every
// renderer are measured the same way. `sync` turns off StreamingMarkdown's animation-frame
// batching (which would otherwise defer the work out of the timed region); in the app, that
// batching only lowers the number of updates. Between updates the page yields to the event
// loop every 25 updates (untimed), so the run is not one giant task.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { clearMarkdownCache, renderMarkdown, StreamingMarkdown } from '../../src/shell/markdown/index.ts';
import { generateMarkdown } from './generate.ts';

export type Strategy = 'naive' | 'ours' | 'plain';

export interface RunOptions {
  strategy: Strategy;
  bytes: number;
  seed: number;
  /** Bytes per streamed chunk. */
  chunk: number;
  /** Render every `stride`-th prefix only (1 = every chunk). */
  stride: number;
}

function Naive({ text }: { text: string }) {
  return <div className="markdown">{renderMarkdown(text)}</div>;
}

function element(strategy: Strategy, text: string) {
  if (strategy === 'naive') return <Naive text={text} />;
  if (strategy === 'ours') return <StreamingMarkdown text={text} done={false} sync />;
  return <pre>{text}</pre>;
}

const docs = new Map<string, string>();

async function run(options: RunOptions): Promise<{ times: number[]; layout: number[]; ends: number[]; docBytes: number }> {
  const key = `${options.bytes}:${options.seed}`;
  if (!docs.has(key)) docs.set(key, generateMarkdown(options.bytes, options.seed));
  const doc = docs.get(key)!;
  clearMarkdownCache();
  const host = document.createElement('div');
  host.className = 'output';
  document.getElementById('stage')!.append(host);
  const root = createRoot(host);
  const times: number[] = [];
  const layout: number[] = [];
  const ends: number[] = [];
  const step = options.chunk * options.stride;
  for (let end = step; ; end += step) {
    const text = doc.slice(0, Math.min(end, doc.length));
    const start = performance.now();
    flushSync(() => root.render(element(options.strategy, text)));
    const rendered = performance.now();
    void host.offsetHeight;
    const laidOut = performance.now();
    times.push(laidOut - start);
    layout.push(laidOut - rendered);
    ends.push(text.length);
    if (text.length === doc.length) break;
    if (times.length % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  root.unmount();
  host.remove();
  return { times, layout, ends, docBytes: doc.length };
}

declare global {
  interface Window {
    __bench: { run: typeof run };
  }
}
window.__bench = { run };
document.title = 'ready';
