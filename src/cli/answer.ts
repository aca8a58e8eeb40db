// Where a streamed answer goes: rendered markdown as it arrives on a terminal that can redraw
// (markdown.ts), the text as it comes when stdout is a pipe, NO_COLOR is set or TERM=dumb,
// nothing in --json mode (cli.ts prints the JSON at the end).
import { LiveMarkdown, type MarkdownTools } from './markdown.ts';
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
  if (!colours(term.out, term.env) || term.env.TERM === 'dumb') {
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

/**
 * The renderer's parts, loading as the sink is made (so the first answer seldom waits): marked's
 * inline lexer, and code highlighting (marked-terminal's, slower to load), awaited only once a
 * piece could open a code fence.
 */
export function markdownTools(): (text: string) => Promise<MarkdownTools> {
  const tools: MarkdownTools = { lex: () => [] };
  const lexer = import('marked').then(({ Lexer }) => {
    tools.lex = (text) => Lexer.lexInline(text);
  });
  // The highlighter's chalk is told the terminal has colour, as it would guess from the
  // process's own stdout otherwise (a pipe under a test).
  process.env.FORCE_COLOR ??= '1';
  const highlighter = import('marked-terminal')
    .then(({ default: Renderer }) => {
      tools.highlight = quietHighlighter(new Renderer({ tab: 0 }));
    })
    .catch(() => undefined);
  let fenced = false;
  return async (text) => {
    await lexer;
    if (!fenced && (text.includes('`') || text.includes('~'))) fenced = true;
    if (fenced) await highlighter;
    return tools;
  };
}

/**
 * highlight.js reports an unknown language, and its deprecations, on the console, which is the
 * terminal being drawn: it is kept quiet, and a language it does not know is left unhighlighted.
 */
function quietHighlighter(renderer: { code(code: string, lang: string): string }): NonNullable<MarkdownTools['highlight']> {
  const known = new Map<string, boolean>();
  return (code, lang) => {
    if (known.get(lang) === false) return undefined;
    const saved = { log: console.log, warn: console.warn, error: console.error };
    let complained = false;
    console.log = console.warn = () => undefined;
    console.error = () => void (complained = true);
    try {
      const out = renderer.code(code, lang).replace(/\n+$/, '');
      if (!known.has(lang)) known.set(lang, !complained);
      return known.get(lang) && !out.includes('\n') ? out : undefined;
    } catch {
      known.set(lang, false);
      return undefined;
    } finally {
      Object.assign(console, saved);
    }
  };
}
