// Fuzzing the command line with fast-check: no input makes the parser, the host or the
// completer throw, and the invariants the shell relies on hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { completeLine } from './host/tabCompletion.ts';
import { parseLine } from './line.ts';
import { maskSecrets } from './host/secrets.ts';
import { tokenize } from './tokenize.ts';

const tester = await createShellTester();

// Lines built from the characters that matter to the parser, so the fuzzer reaches deep paths.
const interesting = fc.constantFrom(':', '!', '"', '\u201C', '\u201D', '\\', ',', ' ', '\n', '：', '！', 'Ａ', '１', '+img[', ']', '(', ')', '{', '}', 'http://x', 'lang', 'use', 'set', 'help', 'voice', 'on', 'off', '中', 'ع', '😀');
const line = fc.oneof(
  fc.string(),
  fc.array(interesting, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.array(interesting, { maxLength: 8 }).map((parts) => ':' + parts.join(' ')),
);

describe('parser fuzz', () => {
  it('parseLine and tokenize never throw, and tokens stay inside the text', () => {
    fc.assert(
      fc.property(line, (input) => {
        parseLine(input);
        for (const token of tokenize(input)) {
          expect(token.start).toBeGreaterThanOrEqual(0);
          expect(token.end).toBeLessThanOrEqual(input.length);
          expect(token.start).toBeLessThan(token.end);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the host answers every line without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(line, async (input) => {
        const result = await tester.run(input);
        for (const output of result.outputs) expect(output.kind).toBeTypeOf('string');
      }),
      { numRuns: 400 },
    );
  });

  it('completion and masking never throw, and masking keeps the length', async () => {
    await fc.assert(
      fc.asyncProperty(line, async (input) => {
        await completeLine(input, tester.host.registry, { settingKeys: () => [], provider: async () => undefined });
        expect(maskSecrets(input, tester.host.registry)).toHaveLength(input.length);
      }),
      { numRuns: 400 },
    );
  });
});
