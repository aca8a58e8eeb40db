// Where a streamed answer goes: rendered markdown as it arrives on a terminal that can redraw
// (markdown.ts), the text as it comes when stdout is a pipe, NO_COLOR is set or TERM=dumb,
// nothing in --json mode (cli.ts prints the JSON at the end).
import { LiveMarkdown } from './markdown.ts';
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
  /** A piece of the answer as it streams. */
  write(text: string): void;
  /** The end of an answer: resolves once all of it is printed. */
  end(info: AnswerInfo): Promise<void>;
}

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
  let stream: LiveMarkdown | undefined;
  let failed = false;
  // Pieces are rendered in order, each once the renderer it needs has loaded.
  let chain: Promise<unknown> = Promise.resolve();
  return {
    write(text) {
      chain = chain.then(async () => {
        const ready = await tools(text);
        if (failed) return term.out.write(text);
        stream ??= new LiveMarkdown(ready, { columns: term.out.columns || 80, rows: term.out.rows || 24 }, (bytes) => term.out.write(bytes));
        try {
          stream.push(text);
        } catch {
          // A fault in the renderer must not lose the answer: the rest of it as it comes.
          failed = true;
          term.out.write(text);
        }
      });
    },
    async end(info) {
      chain = chain.then(() => !failed && stream?.end());
      await chain.catch(() => undefined);
      if (failed && info.text && !info.text.endsWith('\n')) term.out.write('\n');
      stream = undefined;
      failed = false;
      options.onEnd?.(info);
    },
  };
}
