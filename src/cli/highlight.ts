// A line of code highlighted for the terminal: highlight.js's classes turned into SGR colours
// directly. marked-terminal's highlighting (cli-highlight) parsed highlight.js's HTML with parse5
// and coloured it with chalk, three times highlight.js's own cost: at 2,000 tokens a second it
// was most of the client's CPU (bench/README.md, B9). The colours are cli-highlight's default theme.
// Languages load when first asked for (with those they embed), not all 191 at once: that took
// 200 ms of CPU while the first words of an answer were arriving.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
/** What is used of highlight.js (its types are global interfaces, not exports). */
interface Highlighter {
  getLanguage(name: string): unknown;
  registerLanguage(name: string, definition: (hljs: never) => unknown): void;
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

/** Common aliases whose file is named otherwise (checked against highlight.js's own list in
 *  highlight.test.ts); any other name not a file's loads every language, as highlight.js does. */
export const ALIASES: Record<string, string> = {
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', tsx: 'typescript',
  py: 'python', sh: 'bash', zsh: 'bash', console: 'shell', yml: 'yaml', md: 'markdown', html: 'xml', xhtml: 'xml',
  svg: 'xml', rb: 'ruby', rs: 'rust', kt: 'kotlin', cs: 'csharp', 'c++': 'cpp', cc: 'cpp', hpp: 'cpp', golang: 'go',
  ps1: 'powershell', docker: 'dockerfile', text: 'plaintext', txt: 'plaintext', tex: 'latex',
};

interface Mode {
  subLanguage?: string | string[];
  contains?: (Mode | 'self')[];
  variants?: Mode[];
  starts?: Mode;
}

/**
 * highlight.js's core, and a language (with the languages it embeds) loaded synchronously the
 * first time it is asked for: the same colours as with every language loaded, whenever asked.
 */
export function lazyHighlighter(): (code: string, lang: string) => string | undefined {
  const require = createRequire(import.meta.url);
  const hljs = require('highlight.js/lib/core.js') as Highlighter;
  const dir = path.join(path.dirname(require.resolve('highlight.js/lib/core.js')), 'languages');
  let all = false;
  const loadAll = () => {
    if (!all) require('highlight.js');
    all = true;
  };
  /** Registers the language in `file`, then what it embeds; false when there is no such file. */
  const load = (file: string): boolean => {
    if (all || hljs.getLanguage(file)) return true;
    if (!/^[\w-]+$/.test(file) || !existsSync(path.join(dir, `${file}.js`))) return false;
    const definition = require(path.join(dir, `${file}.js`)) as (hljs: never) => Mode;
    hljs.registerLanguage(file, definition);
    const seen = new Set<Mode>();
    const walk = (mode: Mode | 'self' | undefined) => {
      if (!mode || mode === 'self' || seen.has(mode)) return;
      seen.add(mode);
      const sub = mode.subLanguage;
      // No list: guessed among every language registered, so all of them must be.
      if (sub !== undefined && (typeof sub === 'string' ? [sub] : sub).length === 0) loadAll();
      for (const name of typeof sub === 'string' ? [sub] : (sub ?? [])) if (!hljs.getLanguage(name) && !load(ALIASES[name] ?? name)) loadAll();
      for (const m of [...(mode.contains ?? []), ...(mode.variants ?? []), mode.starts]) walk(m);
    };
    walk(hljs.getLanguage(file) as Mode);
    return true;
  };
  const highlight = highlighter(hljs);
  return (code, lang) => {
    const name = lang.toLowerCase();
    if (!hljs.getLanguage(name) && !all && !load(ALIASES[name] ?? name)) loadAll();
    return highlight(code, lang);
  };
}
