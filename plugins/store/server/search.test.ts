// chunkText's normalization is one pass into one buffer (a 10 MB text costs tens of MB, not the
// ~250 MB of a chain of replaces): the same chunks as the replaces gave.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from './search.ts';

/** chunkText as it was, with its normalization written as replaces. */
function chunkTextByReplace(text: string, size = 1000): string[] {
  const clean = text.replace(/\r\n?/g, '\n').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
  const chunks: string[] = [];
  let rest = clean;
  while (rest.length > size) {
    const window = rest.slice(0, size);
    let cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf('. '));
    if (cut < size * 0.5) cut = window.lastIndexOf(' ');
    if (cut < size * 0.5) cut = size;
    chunks.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1);
  }
  if (rest.trim()) chunks.push(rest.trim());
  return chunks.filter(Boolean);
}

describe('chunkText', () => {
  it('chunks as the replaces did, white space of every kind included', () => {
    const piece = fc.constantFrom(' ', '  ', '\t', '\r', '\n', '\r\n', '\n\n\n', 'a', 'word', '. ', '\u00a0', '\ud800', '\udc00', 'é', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), fc.integer({ min: 4, max: 40 }), (parts, size) => {
        const text = parts.join('');
        expect(chunkText(text, size)).toEqual(chunkTextByReplace(text, size));
      }),
      { numRuns: 2000 },
    );
  });

  it('chunks a 10 MB text of words and single spaces in little time and memory', () => {
    const text = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(190_000);
    const heap = process.memoryUsage().heapUsed;
    const started = performance.now();
    const chunks = chunkText(text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(chunks.length).toBeGreaterThan(10_000);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(120 * 1024 * 1024);
  });
});
