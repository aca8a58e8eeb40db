// What the terminal's markdown renderer (markdown.ts) is given: marked's inline lexer, code
// highlighting (highlight.ts) and display and inline math (mathText.ts, inlineMath.ts), for answers as they stream (answer.ts) and logs printed at once (render.ts).
import type { MarkdownTools } from './markdown.ts';

/**
 * The renderer's parts, loading from the call (an answer's sink is made at the start, so the
 * first answer seldom waits): marked's inline lexer, and code highlighting (highlight.ts) with
 * display math (mathText.ts), awaited only once a piece could open a code fence or math.
 */
export function markdownTools(): ((text: string) => Promise<MarkdownTools>) & { all: () => Promise<MarkdownTools> } {
  const tools: MarkdownTools = { lex: () => [] };
  const lexer = import('marked').then(({ Lexer }) => {
    tools.lex = (text) => Lexer.lexInline(text);
  });
  const highlight = import('./highlight.ts');
  // KaTeX takes ~40 ms to load: not while the client starts, but before a question is sent (or
  // a log with math printed), not on an answer's first math while it streams.
  let loaded: Promise<unknown> | undefined;
  const load = () =>
    (loaded ??= Promise.all([highlight, import('./mathText.ts'), import('katex'), import('./inlineMath.ts'), import('marked'), lexer])
      .then(([{ lazyHighlighter }, { mathWith }, katex, { inlineMath }, { Lexer, Marked }]) => {
        tools.highlight = lazyHighlighter();
        const math = mathWith(katex.default);
        tools.math = math;
        // From now on `$x$` in text is math (every piece with a `$` waits for this load).
        const options = new Marked({ extensions: [inlineMath(math)] }).defaults;
        tools.lex = (text) => Lexer.lexInline(text, options);
      })
      .catch(() => undefined));
  let fenced = false;
  const get = async (text: string) => {
    await lexer;
    if (!fenced && (text.includes('`') || text.includes('~') || text.includes('$'))) fenced = true;
    if (fenced) await load();
    return tools;
  };
  // Both parts, awaited before a question is sent: then no piece of its answer waits for a load.
  return Object.assign(get, { all: () => get('`') });
}
