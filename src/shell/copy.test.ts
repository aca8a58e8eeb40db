import { describe, expect, it } from 'vitest';
import { modelInfoCopy } from './copy.ts';

describe('model-info line (spec part 2)', () => {
  const info = { model: 'gpt-demo', raw: 'The **raw** answer.', session: 1700000000123 };
  it('a click copies the raw result', () => {
    expect(modelInfoCopy(info, false)).toEqual({ text: 'The **raw** answer.', kind: 'raw' });
  });
  it('Ctrl/Cmd-click copies a session attach command', () => {
    expect(modelInfoCopy(info, true)).toEqual({ text: ':session attach 1700000000123', kind: 'attach' });
  });
});
