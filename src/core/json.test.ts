// The upload check's JSON scanner takes exactly what JSON.parse takes, and a hostile 10 MB
// file costs it neither the time nor the memory that building the value would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  it('reads 10 MB of hostile JSON quickly and without building it', () => {
    const MB = 10 * 1024 * 1024;
    const cases = ['[' + '{},'.repeat(MB / 3 - 1) + '{}]', '['.repeat(MB / 2) + ']'.repeat(MB / 2), '[' + '0,'.repeat(MB / 2 - 1) + '0]'];
    for (const text of cases) {
      const data = bytes(text);
      const heap = process.memoryUsage().heapUsed;
      const started = performance.now();
      expect(isJson(data)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1000);
      // JSON.parse of the first takes ~220 MB of heap; the scanner keeps one byte per container.
      expect(process.memoryUsage().heapUsed - heap).toBeLessThan(20 * 1024 * 1024);
    }
    expect(isJson(bytes('['.repeat(MB / 2) + ']'.repeat(MB / 2 - 1)))).toBe(false);
  });
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
