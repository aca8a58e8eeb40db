// Where a streamed answer goes: rendered markdown on a colour terminal (markdown.ts), the text
// as it comes when stdout is a pipe or NO_COLOR is set, nothing in --json mode (cli.ts prints
// the JSON at the end).
import { blockStream, terminalMarked, type BlockStream } from './markdown.ts';
import { colours, type Terminal } from './render.ts';

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
  if (!colours(term.out, term.env)) {
    return {
      write: (text) => term.out.write(text),
      end: async (info) => {
        if (info.text && !info.text.endsWith('\n')) term.out.write('\n');
        options.onEnd?.(info);
      },
    };
  }
  // The renderer loads with the first answer; what streams meanwhile waits, in order.
  let renderer: Promise<BlockStream> | undefined;
  const stream = () => (renderer ??= terminalMarked(term.out.columns || 80).then((m) => blockStream(m, (s) => term.out.write(s))));
  let chain: Promise<unknown> = Promise.resolve();
  return {
    write(text) {
      chain = chain.then(async () => (await stream()).push(text));
    },
    async end(info) {
      chain = chain.then(async () => renderer && (await renderer).end());
      await chain;
      options.onEnd?.(info);
    },
  };
}
