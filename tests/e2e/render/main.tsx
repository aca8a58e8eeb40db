// The renderer test page: no CSP, so the renderer itself is what is tested. It renders
// payloads through the markdown renderer (whole, streamed synchronously chunk by chunk, and
// streamed with the real animation-frame batching) and through the shell's plain-text
// surfaces (OutputView text/error/list/table/json/markdown, Previews, Welcome), counts any
// executed payload in window.__xss, and scans the DOM for what must never be there.
import mitt from 'mitt';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import enShell from '../../../locales/en-US/shell.json';
import { createI18n, createMemorySettings, SHELL_SETTINGS, type I18n, type Output, type ShellEvents } from '../../../src/core/host/index.ts';
import { OutputView } from '../../../src/shell/components/OutputView.tsx';
import { Previews } from '../../../src/shell/components/Previews.tsx';
import { Welcome } from '../../../src/shell/components/Welcome.tsx';
import { ShellContext, type ShellServices } from '../../../src/shell/context.tsx';
import { ShellController, type ShellState } from '../../../src/shell/controller.ts';
import { Markdown, StreamingMarkdown } from '../../../src/shell/markdown/index.ts';
import { renderMarkdown } from '../../../src/shell/markdown/pipeline.ts';
import '../../../src/shell/styles.css';
import { scan } from './scan.ts';
import { sliced } from './sliced.tsx';

interface Payload {
  id: number;
  text: string;
}

declare global {
  interface Window {
    __xss: (id?: unknown) => void;
    __xssIds: string[];
    __page: typeof api;
  }
}

window.__xssIds = [];
window.__xss = (id?: unknown) => {
  window.__xssIds.push(String(id));
};
for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
  (window as unknown as Record<string, unknown>)[name] = (id?: unknown) => window.__xss(`${name}:${String(id)}`);
}

const stage = document.getElementById('stage')!;
const roots: Root[] = [];
const scriptsAtLoad = document.scripts.length;

function container(): HTMLElement {
  const el = document.createElement('div');
  el.className = 'output';
  stage.append(el);
  return el;
}

function mount(node: ReactNode): Root {
  const root = createRoot(container());
  roots.push(root);
  flushSync(() => root.render(node));
  return root;
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Waits until no Suspense fallback of the lazy markdown renderer is left in the stage. */
async function settled(expectedMarkdown: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (stage.querySelectorAll('.markdown').length >= expectedMarkdown) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the lazy markdown renderer did not load (${stage.querySelectorAll('.markdown').length}/${expectedMarkdown})`);
}

let i18n: Promise<I18n> | undefined;
function services(patch: Partial<ShellState>): Promise<ShellServices> {
  i18n ??= createI18n({ lang: 'en-US', namespaces: [], load: async () => enShell });
  return i18n.then((i) => {
    const settings = createMemorySettings(SHELL_SETTINGS, {});
    const controller = new ShellController({
      settings,
      events: mitt<ShellEvents>(),
      t: i.t,
      loadHost: () => new Promise(() => {}),
    });
    controller.state.set(patch);
    return { controller, settings, i18n: i };
  });
}

const api = {
  /** <Markdown> for each payload. */
  whole(payloads: Payload[]): void {
    mount(payloads.map((p) => <Markdown key={p.id} text={p.text} />));
  },

  /** <StreamingMarkdown sync> for each payload, fed every prefix of `chunk` characters, then done. */
  streamed(payloads: Payload[], chunk: number): void {
    for (const p of payloads) {
      const root = createRoot(container());
      roots.push(root);
      const size = chunk > 0 ? chunk : 1 + (p.id % 7);
      for (let end = size; end < p.text.length + size; end += size) {
        flushSync(() => root.render(<StreamingMarkdown text={p.text.slice(0, end)} done={false} sync />));
      }
      flushSync(() => root.render(<StreamingMarkdown text={p.text} done />));
    }
  },

  /** <StreamingMarkdown> with its animation-frame batching, updated from timers, then done. */
  async framed(payloads: Payload[], chunk: number): Promise<void> {
    const feeds = payloads.map((p) => {
      const root = createRoot(container());
      roots.push(root);
      return { p, root, end: 0 };
    });
    for (let step = 0; feeds.some((f) => f.end < f.p.text.length); step++) {
      for (const f of feeds) {
        if (f.end >= f.p.text.length) continue;
        f.end += chunk;
        f.root.render(<StreamingMarkdown text={f.p.text.slice(0, f.end)} done={false} />);
      }
      await (step % 2 ? frame() : tick());
    }
    for (const f of feeds) f.root.render(<StreamingMarkdown text={f.p.text} done />);
    await frame();
    await frame();
  },

  /** The shell's surfaces: OutputView of every kind, Previews with the URLs, Welcome. */
  async surfaces(payloads: Payload[], urls: string[]): Promise<void> {
    const outputs = (text: string): Output[] => [
      { kind: 'text', text },
      { kind: 'error', text },
      { kind: 'list', title: text, items: [{ text }, { text: `${text} `, active: true }], empty: text },
      { kind: 'list', title: text, items: [], empty: text },
      { kind: 'table', title: text, columns: [text, 'b'], rows: [[text, text]] },
      { kind: 'json', value: { text } },
      { kind: 'markdown', text },
      { kind: 'markdown', text, streaming: true },
    ];
    mount(payloads.flatMap((p) => outputs(p.text).map((output, i) => <OutputView key={`${p.id}-${i}`} output={output} />)));
    const previews = await services({ previews: urls });
    mount(
      <ShellContext value={previews}>
        <Previews />
      </ShellContext>,
    );
    const welcomes = await Promise.all(payloads.map((p) => services({ systemInfo: { welcome_message: p.text, demo: true } })));
    mount(
      welcomes.map((s, i) => (
        <ShellContext key={i} value={s}>
          <Welcome />
        </ShellContext>
      )),
    );
    await settled(payloads.length * 2);
  },

  /** The detector's control: payloads put into the DOM unsafely (innerHTML), which must execute. */
  unsafe(payloads: Payload[]): void {
    for (const p of payloads) container().innerHTML = p.text;
  },

  /** What must never be in the rendered DOM (scan.ts). */
  scan: (): string[] => scan(stage, scriptsAtLoad),

  /** Text content of the stage (for checks that payloads show as text). */
  text(): string {
    return stage.textContent ?? '';
  },

  executed(): string[] {
    return [...window.__xssIds];
  },

  clear(): void {
    for (const root of roots.splice(0)) root.unmount();
    stage.replaceChildren();
  },

  /**
   * The finished DOM of `text` streamed, against the same text rendered at once (issue 24):
   * streamed a character at a time, in chunks of 2-13 characters, and cut once at every
   * position (that prefix, then the whole). Returns how each way differs from <Markdown>, and
   * whether <Markdown> itself, without its group wrappers, is the whole-document pipeline's DOM.
   */
  streamEquality(text: string): { mismatches: { how: string; streamed: string; fresh: string }[]; wholeSame: boolean; fresh: string; whole: string } {
    const render = (steps: string[]): string => {
      const el = document.createElement('div');
      const root = createRoot(el);
      for (const step of steps) flushSync(() => root.render(<StreamingMarkdown text={step} done={false} sync />));
      flushSync(() => root.render(<StreamingMarkdown text={text} done />));
      const html = el.innerHTML;
      root.unmount();
      return html;
    };
    const fresh = render([]);
    const mismatches: { how: string; streamed: string; fresh: string }[] = [];
    const check = (how: string, steps: string[]) => {
      const streamed = render(steps);
      if (streamed !== fresh && mismatches.length < 3) mismatches.push({ how, streamed, fresh });
    };
    check('a character at a time', Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)));
    for (const size of [2, 3, 5, 8, 13]) check(`in chunks of ${size}`, Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(0, (i + 1) * size)));
    for (let cut = 0; cut <= text.length; cut++) check(`cut at ${cut}`, [text.slice(0, cut)]);
    const el = document.createElement('div');
    const root = createRoot(el);
    flushSync(() => root.render(<div className="markdown">{renderMarkdown(text)}</div>));
    const whole = el.innerHTML;
    root.unmount();
    // Without the group wrappers, and the pipeline's newlines between blocks (no rendering).
    const unwrapped = fresh.replace(/<div class="md-group">|<\/div>(?=<div class="md-group">|<\/div>$)/g, '');
    const flat = (html: string) => html.replace(/>\n+</g, '><');
    return { mismatches, wholeSame: flat(unwrapped) === flat(whole), fresh: flat(unwrapped), whole: flat(whole) };
  },

  /**
   * Where each top-level block of `text` starts and ends, rendered in groups (<Markdown>) and
   * as one document without groups: the groups' containment must not move anything.
   */
  async groupLayout(text: string): Promise<{ grouped: number[]; whole: number[] }> {
    const grouped = container();
    const whole = container();
    const a = createRoot(grouped);
    const b = createRoot(whole);
    roots.push(a, b);
    flushSync(() => {
      a.render(<Markdown text={text} />);
      b.render(<div className="markdown">{renderMarkdown(text)}</div>);
    });
    await frame();
    await frame();
    const edges = (el: HTMLElement, blocks: Element[]) => {
      const top = el.getBoundingClientRect().top;
      return blocks.flatMap((b) => {
        const r = b.getBoundingClientRect();
        return [Math.round(r.top - top), Math.round(r.bottom - top)];
      });
    };
    return {
      grouped: edges(grouped, [...grouped.querySelectorAll('.markdown > .md-group > *')]),
      whole: edges(whole, [...whole.querySelectorAll('.markdown > *')]),
    };
  },

  /** Elements taken out of the DOM while `text` streams in chunks of `chunk` characters,
   *  counted with their descendants, by tag and class of the element taken out. */
  removals(text: string, chunk: number): Record<string, number> {
    const el = container();
    const root = createRoot(el);
    roots.push(root);
    const removed: Record<string, number> = {};
    const observer = new MutationObserver(() => {});
    observer.observe(el, { subtree: true, childList: true });
    for (let end = chunk; end < text.length + chunk; end += chunk) {
      flushSync(() => root.render(<StreamingMarkdown text={text.slice(0, end)} done={false} sync />));
      for (const record of observer.takeRecords()) {
        for (const node of record.removedNodes) {
          if (!(node instanceof Element)) continue;
          const kind = `${node.localName}.${node.className}`;
          removed[kind] = (removed[kind] ?? 0) + 1 + node.querySelectorAll('*').length;
        }
      }
    }
    observer.disconnect();
    return removed;
  },

  // Streaming behaviour checks (renderStreaming.test.ts).
  /**
   * Animation-frame batching, counted rather than sampled (issue 40: reading the DOM after one
   * frame failed on a loaded machine, where React's render of the frame's change came later).
   * Ten updates in one task change nothing synchronously. Then 200 updates, each in its own
   * task (what a socket delivers), while a frame counter runs: every DOM commit is recorded
   * with the frame it happened in (a MutationObserver callback follows each commit's task), and
   * no frame may hold two. Without the batching each task's update would be its own commit.
   */
  async batching(): Promise<{ before: string; syncMutations: number; updates: number; commits: number; frames: number; maxCommitsInAFrame: number; final: string }> {
    const el = container();
    const root = createRoot(el);
    roots.push(root);
    flushSync(() => root.render(<StreamingMarkdown text={'First paragraph.\n\n'} done={false} />));
    const observer = new MutationObserver(() => {});
    observer.observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
    let text = 'First paragraph.\n\n';
    for (const word of 'one two three four five six seven eight nine ten'.split(' ')) {
      text += `${word} `;
      flushSync(() => root.render(<StreamingMarkdown text={text} done={false} />));
    }
    const before = el.textContent ?? '';
    const syncMutations = observer.takeRecords().length;
    observer.disconnect();

    // The frame counter: registered before any update, so within a frame it runs first.
    let frames = 0;
    let counting = true;
    const count = () => {
      frames++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    const commitsByFrame = new Map<number, number>();
    const commits = new MutationObserver(() => commitsByFrame.set(frames, (commitsByFrame.get(frames) ?? 0) + 1));
    commits.observe(el, { subtree: true, childList: true, characterData: true });
    const channel = new MessageChannel();
    const updates = 200;
    await new Promise<void>((resolve) => {
      let sent = 0;
      channel.port1.onmessage = () => {
        text += `w${sent} `;
        root.render(<StreamingMarkdown text={text} done={false} />);
        if (++sent < updates) channel.port2.postMessage(0);
        else resolve();
      };
      channel.port2.postMessage(0);
    });
    channel.port1.close();
    // The last text shows within some frames, however busy the machine (bounded: 10 s).
    const deadline = performance.now() + 10_000;
    while (!(el.textContent ?? '').includes(`w${updates - 1}`) && performance.now() < deadline) await frame();
    counting = false;
    commits.disconnect();
    return {
      before,
      syncMutations,
      updates,
      commits: [...commitsByFrame.values()].reduce((a, b) => a + b, 0),
      frames,
      maxCommitsInAFrame: Math.max(0, ...commitsByFrame.values()),
      final: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
    };
  },

  async stability(doc: string): Promise<{ sameNode: boolean; mutations: number; pendingSeen: boolean; highlightedWhilePending: boolean; highlightedAfter: boolean }> {
    const el = container();
    const root = createRoot(el);
    roots.push(root);
    const fence = doc.indexOf('```ts');
    flushSync(() => root.render(<StreamingMarkdown text={doc.slice(0, fence)} done={false} sync />));
    const first = el.querySelector('.markdown .md-group > *')!;
    const observer = new MutationObserver(() => {});
    observer.observe(first, { subtree: true, childList: true, characterData: true, attributes: true });
    let pendingSeen = false;
    let highlightedWhilePending = false;
    const close = doc.indexOf('```\n', fence + 5) + 4;
    for (let end = fence; end <= close; end += 8) {
      flushSync(() => root.render(<StreamingMarkdown text={doc.slice(0, end)} done={false} sync />));
      const pending = el.querySelector('.md-pending');
      if (pending && end > fence + 12) {
        pendingSeen = true;
        highlightedWhilePending ||= pending.querySelector('.token') !== null;
      }
    }
    for (let end = close; end <= doc.length; end += 64) {
      flushSync(() => root.render(<StreamingMarkdown text={doc.slice(0, end)} done={false} sync />));
    }
    flushSync(() => root.render(<StreamingMarkdown text={doc} done />));
    const mutations = observer.takeRecords().length;
    observer.disconnect();
    return {
      sameNode: first.isConnected && el.querySelector('.markdown .md-group > *') === first,
      mutations,
      pendingSeen,
      highlightedWhilePending,
      highlightedAfter: el.querySelector('pre code .token') !== null,
    };
  },
};

window.__page = api;
window.__sliced = sliced;
document.title = 'ready';
