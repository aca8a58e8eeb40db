// chunkText's normalization is one pass into one buffer (a 10 MB text costs tens of MB, not the
// ~250 MB of a chain of replaces): the same chunks as the replaces gave.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
