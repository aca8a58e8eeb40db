// A line of code highlighted for the terminal: highlight.js's classes turned into SGR colours
// directly. marked-terminal's highlighting (cli-highlight) parsed highlight.js's HTML with parse5
// and coloured it with chalk, three times highlight.js's own cost: at 2,000 tokens a second it
// was most of the client's CPU (bench/README.md, B9). The colours are cli-highlight's default theme.
/** What is used of highlight.js (its types are global interfaces, not exports). */
interface Highlighter {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
}

/** SGR open and close parameters by highlight.js class (`hljs-` dropped). */
const THEME: Record<string, [string, string]> = {
  keyword: ['34', '39'],
  built_in: ['36', '39'],
  type: ['36;2', '39;22'],
  literal: ['34', '39'],
  number: ['32', '39'],
  regexp: ['31', '39'],
  string: ['31', '39'],
  class: ['34', '39'],
  function: ['33', '39'],
  comment: ['32', '39'],
  doctag: ['32', '39'],
  meta: ['90', '39'],
  tag: ['90', '39'],
  name: ['34', '39'],
  attr: ['36', '39'],
  emphasis: ['3', '23'],
  strong: ['1', '22'],
  link: ['4', '24'],
  addition: ['32', '39'],
  deletion: ['31', '39'],
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const decode = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e]!);

/** highlight.js's HTML as SGR: a span opens its class's colour, its end closes it and restores
 *  the spans around it (as chalk nests styles). */
export function htmlToSgr(html: string): string {
  const stack: ([string, string] | undefined)[] = [];
  let out = '';
  for (const [, cls, close, text] of html.matchAll(/<span class="([^"]*)">|(<\/span>)|([^<]+)/g)) {
    if (text !== undefined) out += decode(text);
    else if (cls !== undefined) {
      // `hljs-keyword`, `hljs-meta-keyword` (no colour), `language-xml` (a sub-language: none).
      const style = cls.startsWith('hljs-') ? THEME[cls.slice(5).split(' ')[0]!] : undefined;
      stack.push(style);
      if (style) out += `\u001b[${style[0]}m`;
    } else if (close) {
      const style = stack.pop();
      if (!style) continue;
      out += `\u001b[${style[1]}m`;
      for (const outer of stack) if (outer) out += `\u001b[${outer[0]}m`;
    }
  }
  return out;
}

/** `code` (one line) in `lang`, or undefined when highlight.js does not know the language. */
export function highlighter(hljs: Highlighter): (code: string, lang: string) => string | undefined {
  return (code, lang) => {
    if (!hljs.getLanguage(lang)) return undefined;
    try {
      return htmlToSgr(hljs.highlight(code, { language: lang, ignoreIllegals: true }).value);
    } catch {
      return undefined;
    }
  };
}
