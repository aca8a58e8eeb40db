// What the terminal's markdown renderer (markdown.ts) is given: marked's inline lexer and code
// highlighting, for answers as they stream (answer.ts) and logs printed at once (render.ts).
import type { MarkdownTools } from './markdown.ts';

/**
 * The renderer's parts, loading from the call (an answer's sink is made at the start, so the
 * first answer seldom waits): marked's inline lexer, and code highlighting (marked-terminal's, slower to load), awaited only once a
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
