// Display math ($$ ... $$) as one line of Unicode text for the terminal: KaTeX parses the TeX
// (its MathML output carries every symbol as its character), and the MathML is laid out
// linearly here: scripts as superscript or subscript characters where all have one (x², xᵢ),
// else x^(…) and x_(…); a fraction as a/b; a root as √; accents as combining marks. A table
// (aligned, cases, matrices) is laid out as a grid of lines (mathGrid.ts).
import { BLOCK, fenced, grid, joinBlocks, type Grid } from './mathGrid.ts';

interface Katex {
  renderToString(tex: string, options: { output: 'mathml'; throwOnError: boolean; displayMode: boolean; strict: 'ignore' }): string;
}

interface Node {
  tag: string;
  attrs: string;
  children: (Node | string)[];
}

const SUP: Record<string, string> = Object.fromEntries(
  [...'0123456789+−=()niaeoxjklmpst'].map((c, i) => [c, '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃᵉᵒˣʲᵏˡᵐᵖˢᵗ'[i]!]),
);
const SUB: Record<string, string> = Object.fromEntries([...'0123456789+−=()aeoxijklmnprstuv'].map((c, i) => [c, '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₖₗₘₙₚᵣₛₜᵤᵥ'[i]!]));
const ACCENT: Record<string, string> = {
  '^': '\u0302', ˆ: '\u0302', '~': '\u0303', '˜': '\u0303', '¯': '\u0304', ˉ: '\u0304', '‾': '\u0305',
  '→': '\u20d7', '\u20d7': '\u20d7', '˙': '\u0307', '¨': '\u0308', ˇ: '\u030c', '˘': '\u0306',
};
/** Big operators: a space after their limits, before what they apply to. */
const BIG = new Set([...'∑∏∐∫∬∭∮⋃⋂⋁⋀', 'lim', 'max', 'min', 'sup', 'inf']);
const DOUBLE_STRUCK: Record<string, string> = { R: 'ℝ', N: 'ℕ', Z: 'ℤ', Q: 'ℚ', C: 'ℂ', P: 'ℙ', H: 'ℍ' };
/** Relations and binary operators, spaced on the line (not in scripts, where they stay tight). */
const SPACED = new Set([...'=<>≤≥≠≈≡∼≃≅∝→←↔⇒⇐⇔↦∈∉⊂⊃⊆⊇+−±∓×÷·⋅∘∪∩∧∨']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

/** KaTeX's MathML as a tree (its markup only: tags, attributes in one string, text). */
function parse(html: string): Node {
  const root: Node = { tag: '', attrs: '', children: [] };
  const stack = [root];
  for (const [, close, tag, attrs, selfClose, text] of html.matchAll(/<(\/)?([\w-]+)([^>]*?)(\/)?>|([^<]+)/g)) {
    const top = stack.at(-1)!;
    if (text !== undefined) top.children.push(text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!));
    else if (close) {
      if (stack.length > 1) stack.pop();
    } else {
      const node: Node = { tag: tag!, attrs: attrs ?? '', children: [] };
      top.children.push(node);
      if (!selfClose) stack.push(node);
    }
  }
  return root;
}

const kids = (node: Node) => node.children.filter((c): c is Node => typeof c !== 'string');
const script = (text: string, map: Record<string, string>, mark: string) => {
  const mapped = [...text].map((c) => map[c]);
  if (text && mapped.every(Boolean)) return mapped.join('');
  return [...text].length === 1 ? `${mark}${text}` : `${mark}(${text})`;
};
/** Whether a part reads as one term without parentheses (under a root: a number or one letter). */
const simple = (text: string) => /^√?([\p{L}\p{N}.]+|\([^()]*\))$/u.test(text) || [...text].length === 1;
const rooted = (text: string) => (/^[\p{N}.]+$/u.test(text) || [...text].length === 1 ? text : `(${text})`);
/** Limits: under (`_`) and over (`^`) a base; a big operator's are followed by a space. */
const limits = (base: string, under: string, over: string | undefined) =>
  `${(base = base.trimEnd())}${script(under, SUB, '_')}${over === undefined ? '' : script(over, SUP, '^')}${BIG.has(base) ? ' ' : ''}`;

/** Tables laid out while a formula is read, each standing in its text as BLOCK and its index. */
let blocks: Grid[] = [];

function table(node: Node): string {
  const align = (/columnalign="([^"]*)"/.exec(node.attrs)?.[1] ?? '').split(' ');
  // aligned: no space between a pair's columns (`a &= b`: the relation starts the right one).
  const tight = /columnspacing="0em"/.test(node.attrs);
  const rows = kids(node).map((row) => kids(row).map((cell) => tidy(text(cell, false), !tight)));
  return grid(rows, align, tight ? '' : '  ', blocks);
}

/** Spaces of every width as one, and a sign that starts a term (after `=`, `(`, at the start) unary. */
function tidy(line: string, trimStart = true): string {
  line = line.replace(/[\u00a0\u2000-\u200a\u202f\u205f]/g, ' ').replace(/ {2,}/g, ' ').trimEnd();
  if (trimStart) line = line.trimStart();
  return line.replace(/(^ ?|[([{,=<>≤≥≠≈] ?)([−+±∓]) /g, '$1$2');
}

function text(node: Node | string, tight: boolean): string {
  if (typeof node === 'string') return node;
  const [a, b, c] = kids(node);
  const of = (n: Node | undefined, inScript = tight) => (n ? text(n, inScript) : '');
  switch (node.tag) {
    case 'annotation':
      return '';
    case 'mi':
    case 'mn':
    case 'mtext': {
      const value = node.children.map((ch) => text(ch, tight)).join('');
      return node.attrs.includes('double-struck') ? [...value].map((ch) => DOUBLE_STRUCK[ch] ?? ch).join('') : value;
    }
    case 'mo': {
      // U+2061, function application (`\sin x`): a space.
      const value = node.children.map((ch) => text(ch, tight)).join('').replaceAll('\u2061', ' ');
      return !tight && SPACED.has(value) ? ` ${value} ` : value;
    }
    case 'mspace':
      return ' ';
    case 'msup':
      return of(a) + script(of(b, true), SUP, '^');
    case 'msub':
      return of(a) + script(of(b, true), SUB, '_');
    case 'msubsup':
      return limits(of(a), of(b, true), of(c, true));
    case 'munder':
      return limits(of(a), of(b, true), undefined);
    case 'mover': {
      const over = of(b, true);
      const base = of(a);
      return ACCENT[over] && [...base].length === 1 ? base + ACCENT[over] : base + script(over, SUP, '^');
    }
    case 'munderover':
      return limits(of(a), of(b, true), of(c, true));
    case 'mfrac': {
      const [n, d] = [of(a).trim(), of(b).trim()];
      return `${simple(n) ? n : `(${n})`}/${simple(d) ? d : `(${d})`}`;
    }
    case 'msqrt': {
      return `√${rooted(kids(node).map((k) => text(k, tight)).join('').trim())}`;
    }
    case 'mroot':
      return `${script(of(b, true), SUP, '^')}√${rooted(of(a).trim())}`;
    case 'mtable':
      return table(node);
    case 'mrow': {
      // A table between fences (pmatrix, bmatrix, cases): the fences drawn as tall columns.
      const [open, t, close, more] = kids(node);
      const fence = (n: Node | undefined) => n?.tag === 'mo' && n.attrs.includes('fence="true"');
      if (!more && t?.tag === 'mtable' && fence(open) && (!close || fence(close))) return fenced(of(open, true), table(t), of(close, true), blocks);
      return node.children.map((ch) => text(ch, tight)).join('');
    }
    default:
      return node.children.map((ch) => text(ch, tight)).join('');
  }
}

/** Display math as lines of text, or undefined where KaTeX cannot read it (shown as typed then). */
export function mathLine(katex: Katex, tex: string): string | undefined {
  if (!tex.trim()) return undefined;
  let html: string;
  try {
    html = katex.renderToString(tex, { output: 'mathml', throwOnError: true, displayMode: true, strict: 'ignore' });
  } catch {
    return undefined;
  }
  blocks = [];
  const line = tidy(text(parse(html), false));
  const lines = line.includes(BLOCK) ? joinBlocks(line, blocks).map((l) => l.trimEnd()) : [line];
  blocks = [];
  return lines.join('\n') || undefined;
}

/** Display math with KaTeX (markdownTools.ts loads it with the renderer, before a question is sent). */
export const mathWith = (katex: Katex) => (tex: string) => mathLine(katex, tex);
