import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { generateMarkdown } from '../../../bench/render/generate.ts';
import { growthOverLinear } from '../../../tests/harness/growth.ts';
import { renderMarkdown } from './pipeline.ts';
import { splitBlocks } from './blocks.ts';
import { MAX_BLOCK_CHARS, MAX_MARKDOWN_CHARS, Markdown, StreamingMarkdown } from './StreamingMarkdown.tsx';

/** Without the Copy buttons' wrappers (CodeBlock.tsx), so the group wrappers can be told apart. */
const noCopy = (s: string) => s.replace(/<div class="md-code">(<pre[\s\S]*?<\/pre>)<button type="button" class="md-copy" data-testid="code-copy">Copy<\/button><\/div>/g, '$1');
const flat = (s: string) => noCopy(s.replace(/>\n+</g, '><').trim());
const streaming = (text: string, done = false) => unwrap(flat(renderToStaticMarkup(createElement(StreamingMarkdown, { text, done }))));
/** Without the block-group wrappers (plain divs that change nothing in the layout). */
const unwrap = (s: string) => s.replace(/<div class="md-group">|<\/div>(?=.)/g, '');
const markdown = (text: string) => unwrap(flat(renderToStaticMarkup(createElement(Markdown, { text }))));
const whole = (text: string) => `<div class="markdown">${flat(renderToStaticMarkup(renderMarkdown(text)))}</div>`;

describe('StreamingMarkdown and Markdown', () => {
  it('group finished blocks by 16 in plain wrappers', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const out = flat(renderToStaticMarkup(createElement(Markdown, { text })));
    expect(out.match(/<div class="md-group">/g)).toHaveLength(3);
    expect(out).toMatch(/^<div class="markdown"><div class="md-group"><p>Paragraph 0.<\/p>/);
  });

  it('render a finished text exactly as the whole pipeline does', () => {
    const text = generateMarkdown(12 * 1024, 3);
    expect(markdown(text)).toBe(whole(text));
  });

  it('show an open code fence as raw text (no fence line, no highlighting) until it closes', () => {
    const open = streaming('Intro.\n\n```ts\nconst a = 1;\n\nconst b');
    expect(open).toContain('<p>Intro.</p><pre class="md-pending" data-pending="fence"><code>const a = 1;\n\nconst b</code></pre>');
    expect(open).not.toContain('token');
    const closed = streaming('Intro.\n\n```ts\nconst a = 1;\n```\n');
    expect(closed).toContain('<span class="token keyword">const</span>');
    expect(closed).not.toContain('md-pending');
  });

  it('show an open math block as raw TeX, then typeset it; render everything when done', () => {
    expect(streaming('$$\n\\frac{1}{2')).toContain('<pre class="md-pending" data-pending="math"><code>\\frac{1}{2</code></pre>');
    expect(streaming('$$\n\\frac{1}{2}\n$$\n')).toContain('katex-display');
    // done: the unclosed fence is rendered (as CommonMark does: it runs to the end).
    const done = streaming('```ts\nconst a = 1;', true);
    expect(done).toContain('<span class="token keyword">const</span>');
    expect(done).not.toContain('data-streaming');
  });

  it('never renders raw HTML of a pending block as markup', () => {
    const out = streaming('```\n<img src=x onerror=alert(1)>\n');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).not.toContain('<img');
  });

  it('resolve link reference definitions across blocks', () => {
    const out = streaming('See [the docs][d].\n\nMore text.\n\n[d]: https://docs.test\n\nEnd.\n');
    expect(out).toContain('<a href="https://docs.test" target="_blank" rel="noopener noreferrer nofollow">the docs</a>');
  });

  it('render a finished text with footnotes as one document', () => {
    const text = 'A claim[^1].\n\nMore.\n\n[^1]: The source.\n';
    expect(markdown(text)).toBe(whole(text));
    expect(markdown(text)).toContain('href="#user-content-fn-1"');
  });

  it('bound what is parsed: a block past MAX_BLOCK_CHARS, and what comes after MAX_MARKDOWN_CHARS, are plain text', () => {
    // 200 KB of nested brackets in one paragraph took the parser 86 s.
    const brackets = `${'['.repeat(100_000)}<b>x</b>${']'.repeat(100_000)}`;
    const out = markdown(`Before.\n\n${brackets}\n\nAfter *this*.\n`);
    expect(out).toContain('<p>Before.</p>');
    expect(out).toContain(`<pre class="md-plain" data-plain="true"><code>${'['.repeat(100_000)}&lt;b&gt;x&lt;/b&gt;`);
    expect(out).toContain('<p>After <em>this</em>.</p>');
    // As plain text such a block costs in proportion to its size (20 and 200 KB here); parsed,
    // ten times the size took about a hundred times the time.
    const nested = new Map([10_000, 100_000].map((n) => [n, `Before.\n\n${'['.repeat(n)}<b>x</b>${']'.repeat(n)}\n`]));
    expect(growthOverLinear((n) => markdown(nested.get(n)!), 10_000, 100_000)).toBeLessThan(3);
    // A streamed paragraph that grows past the bound stops being parsed again on every frame.
    expect(streaming('x '.repeat(MAX_BLOCK_CHARS))).toContain('md-plain');
    // The first MAX_MARKDOWN_CHARS are markdown; the blocks after them are as written.
    const paragraph = `Some *emphasis* and $x^2$ in a paragraph. ${'word '.repeat(200)}`;
    const count = Math.ceil(MAX_MARKDOWN_CHARS / paragraph.length) + 20;
    const long = `${Array.from({ length: count }, () => paragraph).join('\n\n')}\n`;
    // What bounds the time is what is parsed: counted, the paragraphs rendered as markdown.
    const rendered = markdown(long);
    const parsed = rendered.match(/<em>emphasis<\/em>/g)!.length;
    expect(parsed).toBeGreaterThanOrEqual(Math.floor(MAX_MARKDOWN_CHARS / paragraph.length));
    expect(parsed).toBeLessThanOrEqual(Math.ceil(MAX_MARKDOWN_CHARS / paragraph.length) + 1);
    expect(rendered.match(/md-plain/g)!.length).toBe(count - parsed);
    // Footnotes make one document only within the bounds.
    expect(markdown(`A claim[^1].\n\n${brackets}\n\n[^1]: The source.\n`)).toContain('md-plain');
  });

  it('split a text of 20,000 blocks at once, in time linear in their number', () => {
    const texts = new Map([200, 20_000].map((n) => [n, `${Array.from({ length: n }, (_, i) => `Paragraph ${i}.`).join('\n\n')}\n\nend\n`]));
    // A hundred times the blocks, about a hundred times the time (the bound of ten times that holds under load).
    expect(growthOverLinear((n) => splitBlocks(texts.get(n)!), 200, 20_000)).toBeLessThan(10);
    const split = splitBlocks(texts.get(20_000)!);
    expect(split.blocks).toHaveLength(20_000);
    expect(split.groups.flat()).toEqual(split.blocks);
  });
});
