import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { inlineMath } from './inlineMath.ts';

describe('inline math in the terminal', () => {
  it('reads a long line of dollars that never close once, not once per dollar', () => {
    const lexer = new Marked({ extensions: [inlineMath(() => 'math')] });
    const line = '$a '.repeat(20_000);
    const started = performance.now();
    const tokens = lexer.lexer(line);
    // Read once per dollar, this line takes about 3.5 s (quadratic); once, a fraction of a second.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(JSON.stringify(tokens)).not.toContain('inlineMath');
    // The same line ending in a formula still has it: only dollars before a failed line end are skipped.
    expect(JSON.stringify(lexer.lexer(`${'$a '.repeat(3)}\n$x$`))).toContain('"type":"inlineMath"');
  });
});
