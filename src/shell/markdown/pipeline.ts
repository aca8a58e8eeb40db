// The markdown pipeline for untrusted text (model answers, logs). One pipeline for every
// surface, streamed or not:
//
//   escapeMarkdownDollars (dollars.ts)                 prices are not math (Pandoc's rule)
//   remark-parse + remark-gfm + remark-math            markdown -> mdast
//   remark-rehype (raw HTML turned into literal text)  mdast -> hast, no `raw` nodes ever
//   rehype-sanitize (GitHub schema, narrowed)           the security boundary
//   rehype-katex (trust: false, limits)                 math, typeset from sanitized TeX
//   rehype-prism-plus/common (small blocks only)        code highlighting
//   harden                                              defence in depth on the final tree
//   hast-util-to-jsx-runtime                            hast -> React elements (no HTML strings)
//
// Sanitizing runs before KaTeX and Prism so that their own markup (style attributes, MathML,
// SVG) survives; `harden` then re-checks the final tree for event handlers, script-capable
// elements and URLs, so a bug in a later plugin cannot reintroduce a sink.
// This module (and KaTeX's CSS) is loaded lazily: it must stay out of the first paint.
import 'katex/dist/katex.min.css';
import './markdown.css';
import type { Element, ElementContent, Properties, Root as HastRoot } from 'hast';
import { toJsxRuntime, type Options as JsxOptions } from 'hast-util-to-jsx-runtime';
import { CodeBlock } from './CodeBlock.tsx';
import { escapeMarkdownDollars } from './dollars.ts';
import { HeldImage } from '../components/HeldImage.tsx';
import type { ReactElement } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import rehypeKatex from 'rehype-katex';
import rehypePrism from 'rehype-prism-plus/common';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype, { type Options as RemarkRehypeOptions } from 'remark-rehype';
import { unified, type Processor } from 'unified';

/** Schemes a link may use. Anything else (javascript:, data:, vbscript:, relative paths,
 *  protocol-relative `//host`) loses its href; in-page `#fragment` links (footnotes) stay. */
export const LINK_PROTOCOLS = ['http', 'https', 'mailto'] as const;
/** Schemes an image may load from. No data:, blob: or relative URLs. */
export const IMAGE_PROTOCOLS = ['http', 'https'] as const;

/** KaTeX limits. `trust: false` refuses \href, \url, \includegraphics, \htmlClass, \htmlId,
 *  \htmlStyle and \htmlData; `maxExpand` bounds macro expansion (\def loops); `maxSize` caps
 *  user sizes (\rule{1e6em}...). rehype-katex itself tries once with `throwOnError: true`
 *  and falls back to `throwOnError: false, strict: 'ignore'` (it does not accept the option
 *  from us); a formula that still fails becomes escaped text in a `.katex-error` span. */
export const KATEX_OPTIONS = {
  trust: false,
  strict: 'ignore',
  maxExpand: 1000,
  maxSize: 20,
  output: 'htmlAndMathml',
} as const;

/** rehype-prism-plus splits highlighted code into lines with one tree filter per line, which
 *  is quadratic (400 lines: ~180 ms in Node). Longer blocks are shown without highlighting. */
export const MAX_HIGHLIGHT_LINES = 300;

const schema: SanitizeSchema = {
  ...defaultSchema,
  // Raw HTML never reaches hast, so the only ids are footnote ids, which remark-rehype already
  // prefixes with `user-content-`; a second prefix here would break the footnote links.
  // `harden` still forces the prefix on every id (DOM clobbering of globals such as `window.x`).
  clobberPrefix: '',
  protocols: {
    ...defaultSchema.protocols,
    href: [...LINK_PROTOCOLS],
    src: [...IMAGE_PROTOCOLS],
    cite: ['http', 'https'],
    longDesc: ['http', 'https'],
  },
  attributes: {
    ...defaultSchema.attributes,
    // remark-math marks math as `code.language-math.math-inline` / `pre > code.language-math.math-display`.
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

// Raw HTML in markdown is shown as the literal text the model wrote: never parsed, never
// dropped silently. Block HTML becomes a paragraph (line breaks kept), inline HTML a text node.
const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);
const handlers: RemarkRehypeOptions['handlers'] = {
  html(_state, node: { value: string }, parent) {
    if (!parent || !FLOW_PARENTS.has(parent.type)) return { type: 'text', value: node.value };
    const children: ElementContent[] = [];
    node.value.split('\n').forEach((line, i) => {
      if (i) children.push({ type: 'element', tagName: 'br', properties: {}, children: [] });
      children.push({ type: 'text', value: line });
    });
    return { type: 'element', tagName: 'p', properties: {}, children };
  },
};

type Transform = (tree: HastRoot, file: unknown) => void;

function walk(parent: HastRoot | Element, fn: (node: Element, parent: HastRoot | Element, index: number) => void): void {
  // Index loop: `fn` may replace the current node in place.
  for (let i = 0; i < parent.children.length; i++) {
    const node = parent.children[i]!;
    if (node.type !== 'element') continue;
    fn(node, parent, i);
    const current = parent.children[i];
    if (current && current.type === 'element') walk(current, fn);
  }
}

const lineCount = (node: Element): number => {
  let n = 1;
  const count = (el: Element | ElementContent) => {
    if (el.type === 'text') n += el.value.split('\n').length - 1;
    else if (el.type === 'element') el.children.forEach(count);
  };
  count(node);
  return n;
};

/** rehype-prism-plus (common grammars, unknown languages left plain) on blocks of at most
 *  MAX_HIGHLIGHT_LINES lines. Longer blocks are hidden from it by a temporary tag rename. */
function rehypeHighlight(this: Processor) {
  const inner = (rehypePrism as unknown as (this: Processor, o: object) => Transform).call(this, { ignoreMissing: true });
  return (tree: HastRoot, file: unknown) => {
    const hidden: Element[] = [];
    walk(tree, (node, parent) => {
      if (node.tagName === 'code' && parent.type === 'element' && parent.tagName === 'pre' && lineCount(node) > MAX_HIGHLIGHT_LINES) {
        node.tagName = 'x-long-code';
        hidden.push(node);
      }
    });
    inner(tree, file);
    for (const node of hidden) node.tagName = 'code';
  };
}

/** How many typeset formulas are kept, and the longest kept (its subtree as JSON): a formula's
 *  tree is a few KB, but a 16 KB formula's could be megabytes, and 256 of those from a hostile
 *  log would hold hundreds of MB. Longer formulas are typeset each time, as before the cache. */
const MATH_CACHE_LIMIT = 256;
const MAX_CACHED_MATH_CHARS = 2000;
const mathCache = new Map<string, ElementContent[]>();

/** What the formula cache holds (tests). */
export const mathCacheSize = (): { entries: number; longestKey: number } => ({
  entries: mathCache.size,
  longestKey: Math.max(0, ...[...mathCache.keys()].map((k) => k.length)),
});
const MATH_CLASSES = ['language-math', 'math-display', 'math-inline'];
const classesOf = (node: Element): unknown[] => (Array.isArray(node.properties.className) ? node.properties.className : []);
const withoutPositions = (key: string, value: unknown) => (key === 'position' ? undefined : value);

/**
 * rehype-katex with a cache of its results: a streamed answer's unfinished block is typeset
 * again on every frame, and each formula once more when its block is finished, which made
 * KaTeX (and parsing its HTML into hast) a third of the renderer's time. Each formula not seen
 * before goes through rehype-katex alone (its own rules and error fallback); its result is
 * kept, keyed by the formula's whole subtree, and copied for the next tree that has it.
 */
function rehypeMath(this: Processor) {
  const inner = (rehypeKatex as unknown as (o: object) => Transform)(KATEX_OPTIONS);
  return (tree: HastRoot, file: unknown) => {
    // The same scopes rehype-katex replaces: a math `code`, or the `pre` around a display one.
    const scopes: { scope: Element; parent: HastRoot | Element }[] = [];
    const visit = (parent: HastRoot | Element) => {
      for (const node of parent.children) {
        if (node.type !== 'element') continue;
        const math = node.tagName === 'pre' ? node.children.find((c) => c.type === 'element' && c.tagName === 'code' && classesOf(c).includes('language-math')) : undefined;
        if (math || classesOf(node).some((c) => MATH_CLASSES.includes(c as string))) scopes.push({ scope: node, parent });
        else visit(node);
      }
    };
    visit(tree);
    for (const { scope, parent } of scopes) {
      const key = JSON.stringify(scope, withoutPositions);
      let result = mathCache.get(key);
      if (result) {
        mathCache.delete(key);
      } else {
        const alone: HastRoot = { type: 'root', children: [scope] };
        inner(alone, file);
        result = alone.children as ElementContent[];
      }
      if (key.length <= MAX_CACHED_MATH_CHARS) {
        mathCache.set(key, result);
        if (mathCache.size > MATH_CACHE_LIMIT) mathCache.delete(mathCache.keys().next().value!);
      }
      // A copy: later passes (harden) change the tree in place.
      parent.children.splice(parent.children.indexOf(scope), 1, ...structuredClone(result));
    }
  };
}

const FORBIDDEN_TAGS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'form',
  'input', 'button', 'textarea', 'select', 'option', 'template', 'noscript', 'foreignobject', 'use', 'image',
  'animate', 'set', 'animatemotion', 'animatetransform', 'handler', 'listener', 'portal', 'xmp', 'noembed',
]);
const URL_PROPS = new Set(['href', 'src', 'xLinkHref', 'action', 'formAction', 'srcSet', 'poster', 'data', 'cite', 'background', 'longDesc', 'ping', 'codeBase', 'manifest', 'lowsrc', 'dynsrc']);
const ID_PREFIX = 'user-content-';
const DANGEROUS_STYLE = /url\s*\(|expression\s*\(|javascript:|vbscript:|@import|behavior\s*:|-moz-binding/i;

/** `javascript:` and friends hidden by entities, control characters or whitespace are already
 *  decoded in hast; this only has to ignore leading whitespace and control characters. */
const schemeOf = (url: string): string | null => {
  const m = /^[\u0000-\u0020]*([a-z][a-z0-9+.-]*):/i.exec(url);
  return m ? m[1]!.toLowerCase() : null;
};
const isLink = (url: string) => (LINK_PROTOCOLS as readonly string[]).includes(schemeOf(url) ?? '');
const isImage = (url: string) => (IMAGE_PROTOCOLS as readonly string[]).includes(schemeOf(url) ?? '');

/** Last pass over the final tree: the rules the renderer promises, whatever the plugins did. */
function rehypeHarden() {
  return (tree: HastRoot) => {
    walk(tree, (node, parent, index) => {
      if (FORBIDDEN_TAGS.has(node.tagName.toLowerCase())) {
        // Task-list checkboxes are the one allowed input: disabled, type checkbox, no name.
        const p = node.properties;
        if (node.tagName === 'input' && p.type === 'checkbox' && p.disabled === true) {
          node.properties = { type: 'checkbox', disabled: true, checked: Boolean(p.checked) };
          return;
        }
        parent.children.splice(index, 1, { type: 'text', value: '' });
        return;
      }
      const props: Properties = node.properties;
      for (const key of Object.keys(props)) {
        if (/^on/i.test(key)) delete props[key];
        else if (key === 'style' && DANGEROUS_STYLE.test(String(props[key]))) delete props[key];
        else if (URL_PROPS.has(key) && !(node.tagName === 'a' && key === 'href') && !(node.tagName === 'img' && key === 'src')) {
          delete props[key];
        }
      }
      if (props.id !== undefined && !String(props.id).startsWith(ID_PREFIX)) props.id = ID_PREFIX + String(props.id);
      if (props.name !== undefined) delete props.name;
      if (node.tagName === 'a' && props.href !== undefined) {
        const href = String(props.href);
        if (isLink(href)) {
          props.target = '_blank';
          props.rel = ['noopener', 'noreferrer', 'nofollow'];
        } else if (!href.startsWith('#')) {
          delete props.href;
        }
      }
      if (node.tagName === 'img') {
        const src = props.src === undefined ? '' : String(props.src);
        if (!isImage(src)) {
          // No loadable source: show the alt text instead of a broken image.
          parent.children.splice(index, 1, { type: 'text', value: String(props.alt ?? '') });
          return;
        }
        props.referrerPolicy = 'no-referrer';
        props.loading = 'lazy';
        props.decoding = 'async';
      }
    });
  };
}

function createProcessor() {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkMath)
    .use(remarkRehype, { allowDangerousHtml: false, handlers })
    .use(rehypeSanitize, schema)
    .use(rehypeMath)
    .use(rehypeHighlight)
    .use(rehypeHarden)
    .freeze();
}

let processor: ReturnType<typeof createProcessor> | undefined;

/** Markdown to a sanitized, typeset and highlighted hast tree. */
export function markdownToHast(markdown: string): HastRoot {
  processor ??= createProcessor();
  return processor.runSync(processor.parse(escapeMarkdownDollars(markdown)), markdown) as HastRoot;
}

const jsxOptions: JsxOptions = {
  Fragment,
  development: false,
  jsx: jsx as JsxOptions['jsx'],
  jsxs: jsxs as JsxOptions['jsxs'],
  passKeys: true,
  ignoreInvalidStyle: true,
  elementAttributeNameCase: 'react',
  stylePropertyNameCase: 'dom',
  // Code blocks get a Copy button (CodeBlock.tsx); an image from another origin waits for a
  // click (HeldImage.tsx); everything else is plain elements.
  components: { pre: CodeBlock, img: HeldImage },
};

/** A hast tree to React elements (a fragment). */
export function hastToReact(tree: HastRoot): ReactElement {
  return toJsxRuntime(tree, jsxOptions) as ReactElement;
}

/**
 * Markdown to React elements through the whole pipeline. Never throws: if a plugin fails on
 * some input, the text is shown as plain text in a `<pre>` (React escapes it).
 */
export function renderMarkdown(markdown: string): ReactElement {
  try {
    return hastToReact(markdownToHast(markdown));
  } catch {
    return jsx('pre', { className: 'md-fallback', children: markdown }) as ReactElement;
  }
}
