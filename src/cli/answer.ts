// Where a streamed answer goes: rendered markdown as it arrives on a terminal that can redraw
// (markdown.ts), the text as it comes when stdout is a pipe, NO_COLOR is set or TERM=dumb,
// nothing in --json mode (cli.ts prints the JSON at the end).
import { LiveMarkdown, type MarkdownTools } from './markdown.ts';
import { markdownTools } from './markdownTools.ts';
import { rendersMarkdown, type Terminal } from './render.ts';

export interface AnswerInfo {
  model: string;
  session: number;
  text: string;
  stats?: Record<string, unknown>;
  evaluation?: { score: number | null; reason: string };
}

export interface ChatSink {
  /** Resolves once the sink can write an answer's first words at once (its renderer loaded). */
  prepare?(): Promise<void>;
  /** A piece of the answer as it streams. */
  write(text: string): void;
  /** The end of an answer: resolves once all of it is printed. */
  end(info: AnswerInfo): Promise<void>;
}

/** The longest a rendered piece waits to be written with the next ones (ms): far under the 50 ms
 *  in which a word must show (issue 40), and under a 60 Hz terminal's frame. */
export const WRITE_MS = 8;

export function answerSink(term: Terminal, options: { json: boolean; onEnd?: (info: AnswerInfo) => void }): ChatSink {
  if (options.json) return { write: () => undefined, end: async (info) => options.onEnd?.(info) };
  if (!rendersMarkdown(term)) {
    return {
      write: (text) => term.out.write(text),
      end: async (info) => {
        if (info.text && !info.text.endsWith('\n')) term.out.write('\n');
        options.onEnd?.(info);
      },
    };
  }
  const tools = markdownTools();
  let ready: MarkdownTools | undefined;
  let stream: LiveMarkdown | undefined;
  let failed = false;
  // What arrived is rendered and sent to the terminal at most once per WRITE_MS: a write to a
  // terminal is a system call (with its line discipline's work per byte), and the renderer's
  // work per push (the open line shown, the cursor's bytes taken) was most of the client's CPU
  // at 2,000 tokens a second when done per token; WRITE_MS keeps the delay unseen. A piece after
  // a quiet WRITE_MS goes at once (a slow stream's words wait for nothing).
  let incoming = '';
  let sentAt = Number.NEGATIVE_INFINITY;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const fallBack = (text: string) => {
    // A fault in the renderer must not lose the answer: the rest of it as it comes.
    failed = true;
    if (pending) term.out.write(pending);
    pending = '';
    term.out.write(text);
  };
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    sentAt = performance.now();
    const text = incoming;
    incoming = '';
    if (text && stream && !failed) {
      try {
        stream.push(text);
      } catch {
        return fallBack(text);
      }
    }
    if (pending) term.out.write(pending);
    pending = '';
  };
  const output = (bytes: string) => {
    pending += bytes;
  };
  const render = (ready: MarkdownTools, text: string) => {
    if (failed) return void term.out.write(text);
    stream ??= new LiveMarkdown(ready, { columns: term.out.columns || 80, rows: term.out.rows || 24 }, output);
    incoming += text;
    if (timer) return;
    const wait = sentAt + WRITE_MS - performance.now();
    // Timers count from the event loop's clock, which may lag a millisecond behind.
    if (wait > 0) timer = setTimeout(send, Math.ceil(wait) + 1);
    else send();
  };
  // Until the renderer has loaded, pieces wait for it, in order; then each renders as it comes
  // (a piece that could open a code fence or display math waits for their parts, as markdownTools says).
  let chain: Promise<unknown> | undefined;
  let waiting = 0;
  return {
    async prepare() {
      ready ??= await tools.all().catch(() => undefined);
    },
    write(text) {
      const known = ready;
      if (!waiting && known && (known.highlight || !/[`~$]/.test(text))) return render(known, text);
      waiting++;
      const previous = chain ?? Promise.resolve();
      chain = previous.then(async () => {
        ready = await tools(text);
        waiting--;
        render(ready, text);
      });
    },
    async end(info) {
      await chain?.catch(() => undefined);
      chain = undefined;
      send();
      try {
        if (!failed) stream?.end();
      } catch {
        failed = true;
      }
      send();
      if (failed && info.text && !info.text.endsWith('\n')) term.out.write('\n');
      stream = undefined;
      failed = false;
      options.onEnd?.(info);
    },
  };
}
