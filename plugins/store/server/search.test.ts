// chunkText's normalization is one pass into one buffer (a 10 MB text costs tens of MB, not the
// ~250 MB of a chain of replaces): the same chunks as the replaces gave.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { growthOverLinear } from '../../../tests/harness/growth.ts';
import { chunkText, splitChunks } from './search.ts';

/** chunkText as it was, with its normalization written as replaces. */
const chunkTextByReplace = (text: string, size = 1000): string[] =>
  splitChunks(text.replace(/\r\n?/g, '\n').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim(), size);

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

  it('chunks a 10 MB text of words and single spaces in little memory, in time linear in its size', () => {
    const lines = (n: number) => 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(n);
    const text = lines(190_000);
    const heap = process.memoryUsage().heapUsed;
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(10_000);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(120 * 1024 * 1024);
    // 40 KB and 4 MB: a hundred times the text, about a hundred times the time (the bound of ten
    // times that holds under load; a cost growing with the square would be ~100 times over).
    const sized = new Map([760, 76_000].map((n) => [n, lines(n)]));
    expect(growthOverLinear((n) => chunkText(sized.get(n)!), 760, 76_000, 3)).toBeLessThan(10);
  });
});
