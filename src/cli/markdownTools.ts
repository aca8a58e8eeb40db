// What the terminal's markdown renderer (markdown.ts) is given: marked's inline lexer, code
// highlighting (highlight.ts) and display math (mathText.ts), for answers as they stream (answer.ts) and logs printed at once (render.ts).
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
  const loaded = Promise.all([import('./highlight.ts'), import('./mathText.ts')])
    .then(([{ lazyHighlighter }, { lazyMath }]) => {
      tools.highlight = lazyHighlighter();
      tools.math = lazyMath();
    })
    .catch(() => undefined);
  let fenced = false;
  const get = async (text: string) => {
    await lexer;
    if (!fenced && (text.includes('`') || text.includes('~') || text.includes('$'))) fenced = true;
    if (fenced) await loaded;
    return tools;
  };
  // Both parts, awaited before a question is sent: then no piece of its answer waits for a load.
  return Object.assign(get, { all: () => get('`') });
}
