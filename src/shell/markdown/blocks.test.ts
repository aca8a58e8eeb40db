import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { generateMarkdown } from '../../../bench/render/generate.ts';
import { BlockSplitter, GROUP_SIZE, splitBlocks } from './blocks.ts';
import { renderMarkdown } from './pipeline.ts';

const html = (markdown: string) => renderToStaticMarkup(renderMarkdown(markdown)).replace(/>\n+</g, '><').trim();
const htmlOfBlocks = (blocks: readonly string[]) =>
  renderToStaticMarkup(createElement(Fragment, null, ...blocks.map((b) => renderMarkdown(b))))
    .replace(/>\n+</g, '><')
    .trim();
const all = (text: string) => {
  const s = splitBlocks(text);
  return s.tail ? [...s.blocks, s.tail] : [...s.blocks];
};

describe('splitBlocks', () => {
  it('splits top-level blocks at blank lines and drops trailing blank lines', () => {
    const s = splitBlocks('# Title\n\nOne\ntwo\n\n\nThree\n');
    expect(s.blocks).toEqual(['# Title', 'One\ntwo']);
    expect(s.tail).toBe('Three\n');
    expect(s.open).toBeNull();
  });

  it('keeps loose lists, indented continuations and indented code in one block', () => {
    expect(all('- a\n\n- b\n\n  more b\n\n1. c\n\nafter\n')).toEqual(['- a\n\n- b\n\n  more b\n\n1. c', 'after\n']);
    expect(all('para\n\n    code\n\n    more\n\nend\n')).toEqual(['para\n\n    code\n\n    more', 'end\n']);
    // The partial last line is not classified yet: it stays in the tail with its block.
    expect(all('para\n\nend')).toEqual(['para\n\nend']);
  });

  it('never splits inside a code fence or a math block, and splits before and after them', () => {
    const text = 'intro\n```ts\na\n\nb\n```\nafter\n\n~~~~\nx\n\n~~~\n~~~~\n$$\n\\int\n\n$$\nend\n';
    expect(all(text)).toEqual(['intro', '```ts\na\n\nb\n```', 'after', '~~~~\nx\n\n~~~\n~~~~', '$$\n\\int\n\n$$', 'end\n']);
  });

  it('reports an open fence or math block, including an opener still on its partial line', () => {
    expect(splitBlocks('text\n\n```py\nprint(1)\n\n').open).toBe('fence');
    expect(splitBlocks('text\n\n````\n```\n').open).toBe('fence');
    expect(splitBlocks('text\n\n~~~\ncode').open).toBe('fence');
    expect(splitBlocks('text\n\n$$\nx^2').open).toBe('math');
    expect(splitBlocks('text\n\n```ts').open).toBe('fence');
    expect(splitBlocks('- item\n\n  ```js\n  x\n').open).toBe('fence');
    expect(splitBlocks('> ```\n> x\n').open).toBe('fence');
    expect(splitBlocks('```ts\nx\n```\n').open).toBeNull();
    expect(splitBlocks('$$x$$ inline\n').open).toBeNull();
    expect(splitBlocks('a ``` b\n').open).toBeNull();
  });

  it('collects link reference definitions and notices footnotes', () => {
    const s = splitBlocks('See [the docs][d] and [^1].\n\n[d]: https://example.com "Docs"\n[e]: https://e.test\n\n[^1]: A note.\n\nEnd\n');
    expect(s.definitions).toBe('[d]: https://example.com "Docs"\n[e]: https://e.test');
    expect(s.footnotes).toBe(true);
    expect(splitBlocks('```\n[^1]: in code\n```\n').footnotes).toBe(false);
  });

  it('is incremental: growing the text never changes a finished block, and matches a fresh split', () => {
    const text = generateMarkdown(24 * 1024, 11);
    const splitter = new BlockSplitter();
    let previous: readonly string[] = [];
    for (let end = 0; end <= text.length; end += 7) {
      const s = splitter.update(text.slice(0, end));
      expect(s.blocks.slice(0, previous.length)).toEqual(previous);
      previous = s.blocks;
      if (end % 301 === 0) expect(s).toEqual(splitBlocks(text.slice(0, end)));
    }
    const final = splitter.update(text);
    expect([...final.blocks, final.tail].join('\n\n').replace(/\n{3,}/g, '\n\n')).toBe(text.replace(/\n{3,}/g, '\n\n'));
  });

  it('keeps full groups by identity while the text grows, and starts over on a new text', () => {
    const text = generateMarkdown(16 * 1024);
    const splitter = new BlockSplitter();
    const first = splitter.update(text.slice(0, text.length / 2));
    expect(first.groups[0]).toHaveLength(GROUP_SIZE);
    const second = splitter.update(text);
    expect(second.groups[0]).toBe(first.groups[0]);
    expect(second.groups.flat()).toEqual(second.blocks);
    expect(splitter.update('other text\n\nmore\n').blocks).toEqual(['other text']);
  });

  it('renders the same HTML block by block as the whole text does', () => {
    for (const text of [
      generateMarkdown(16 * 1024, 7),
      generateMarkdown(8 * 1024, 11),
      'para\n```js\nlet a\n\nlet b\n```\ntext\n\n- a\n\n- b\n\n      indented code\n\n> q\n> ```\n> x\n> ```\n\n1. one\n2. two\n\n$$\n\\frac12\n$$\nLine\n===\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n***\n\n~~~\nx\n~~~\n',
    ]) {
      expect(htmlOfBlocks(all(text))).toBe(html(text));
    }
  });
});
