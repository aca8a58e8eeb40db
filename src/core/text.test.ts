import { describe, expect, it } from 'vitest';
import { displayWidth, foldFullWidth, previewLine, shortenPlaceholder, truncatePreview } from './text.ts';
import { evalColour } from './host/evaluation.ts';

describe('full-width folding', () => {
  it('folds letters and digits only', () => {
    expect(foldFullWidth('ＡＢＣａｂｃ０１２')).toBe('ABCabc012');
    expect(foldFullWidth('：！（）')).toBe('：！（）');
    expect(foldFullWidth('中文')).toBe('中文');
  });
});

describe('placeholder (spec part 2)', () => {
  it('counts CJK characters as two columns', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('한국어')).toBe(6);
  });

  it('keeps a placeholder narrower than 45 columns without newlines', () => {
    expect(shortenPlaceholder(':help')).toBe(':help');
    expect(shortenPlaceholder('a'.repeat(44))).toBe('a'.repeat(44));
  });

  it('shortens at width 45 or more to 20 characters plus an ellipsis', () => {
    expect(shortenPlaceholder('a'.repeat(45))).toBe('a'.repeat(20) + '...');
    // 23 CJK characters are 46 columns wide.
    expect(shortenPlaceholder('中'.repeat(23))).toBe('中'.repeat(20) + '...');
    // 22 CJK characters are 44 columns: unchanged.
    expect(shortenPlaceholder('中'.repeat(22))).toBe('中'.repeat(22));
  });

  it('shortens anything with a newline', () => {
    expect(shortenPlaceholder('line one\nline two')).toBe('line one line two...');
  });

  it('never splits an emoji', () => {
    expect(shortenPlaceholder('😀'.repeat(50))).toBe('😀'.repeat(20) + '...');
  });
});

describe('previews (spec part 3)', () => {
  it('cuts at 150 characters plus an ellipsis', () => {
    expect(truncatePreview('x'.repeat(150))).toBe('x'.repeat(150));
    expect(truncatePreview('x'.repeat(151))).toBe('x'.repeat(150) + '...');
  });

  it('previewLine puts the text on one line before the cut, so a second pass changes nothing', () => {
    const text = `a\n\n${'b '.repeat(100)}\n| c |`;
    const once = previewLine(text);
    expect(once).toBe(`a ${'b '.repeat(74)}...`);
    expect(previewLine(once)).toBe(once);
    expect(previewLine('  short\ttext \n')).toBe('short text');
  });
});

describe('self-evaluation colours (spec part 9)', () => {
  it.each([
    [10, 'green'], [7, 'green'], [6, 'orange'], [4, 'orange'], [3, 'red'], [0, 'red'],
    [-1, 'grey'], [11, 'grey'], [Number.NaN, 'grey'],
  ] as const)('%s → %s', (score, colour) => {
    expect(evalColour(score)).toBe(colour);
  });
});
