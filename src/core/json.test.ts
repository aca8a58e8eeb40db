// The upload check's JSON scanner takes exactly what JSON.parse takes, and a hostile 10 MB
// file costs it neither the time nor the memory that building the value would: its time grows
// with the size, as a ratio between two sizes shows (a wall-clock bound failed under load).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { growthOverLinear } from '../../tests/harness/growth.ts';
import { isJson } from './json.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const parses = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

describe('isJson', () => {
  it('agrees with JSON.parse on JSON values, as written compactly or spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t'), (value, indent) => {
        expect(isJson(bytes(JSON.stringify(value, null, indent)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on near-JSON and random text', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '"a"', '\\', '\\u00e9', '\\x', '1', '-', '0', '01', '1.', '.5', '1e', '1e+2', 'true', 'tru', 'null', 'false', ' ', '\n', '\u0001', 'é');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(isJson(bytes(text))).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(isJson(bytes(text))).toBe(parses(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('takes a byte order mark, as the decoder before JSON.parse did, and nothing else around the value', () => {
    expect(isJson(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"a":1}')]))).toBe(true);
    for (const text of ['', ' ', '{"a":1} x', '{"a":1}{}', '[1,]', '{"a":1,}', '{,}', '[,1]', "{'a':1}", '{"a" 1}', '"\t"', '[1 2]', '{"a":1 "b":2}']) {
      expect(isJson(bytes(text)), text).toBe(false);
      expect(parses(text), text).toBe(false);
    }
  });

  it('reads 10 MB of hostile JSON in time linear in its size and without building it', () => {
    const MB = 1024 * 1024;
    const cases = [
      (size: number) => '[' + '{},'.repeat(size / 3 - 1) + '{}]',
      (size: number) => '['.repeat(size / 2) + ']'.repeat(size / 2),
      (size: number) => '[' + '0,'.repeat(size / 2 - 1) + '0]',
    ];
    for (const make of cases) {
      const data = bytes(make(10 * MB));
      const heap = process.memoryUsage().heapUsed;
      expect(isJson(data)).toBe(true);
      // JSON.parse of the first takes ~220 MB of heap; the scanner keeps one byte per container.
      expect(process.memoryUsage().heapUsed - heap).toBeLessThan(20 * 1024 * 1024);
      // A hundred times the bytes (40 KB, 4 MB), about a hundred times the time: the bound of ten
      // times that holds under load, and a scan that went back over what it read would be ~100 times over.
      const sized = new Map([40 * 1024, 4 * MB].map((size) => [size, bytes(make(size))]));
      expect(growthOverLinear((size) => expect(isJson(sized.get(size)!)).toBe(true), 40 * 1024, 4 * MB, 3)).toBeLessThan(10);
    }
    expect(isJson(bytes('['.repeat(10 * MB / 2) + ']'.repeat(10 * MB / 2 - 1)))).toBe(false);
  }, 30_000);
});

describe('a limit on the number of values', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('counts containers and scalars alike, and refuses past the limit', () => {
    expect(isJson(bytes('{"name":"a","urls":["x","y"]}'), { maxValues: 5 })).toBe(true);
    expect(isJson(bytes('{"name":"a","urls":["x","y","z"]}'), { maxValues: 5 })).toBe(false);
    expect(isJson(bytes('[[[[[[]]]]]]'), { maxValues: 5 })).toBe(false);
    expect(isJson(bytes(`[${'{},'.repeat(999)}{}]`), { maxValues: 100 })).toBe(false);
  });
});
