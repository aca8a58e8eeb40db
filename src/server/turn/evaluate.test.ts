import { describe, expect, it } from 'vitest';
import { parseJudgement } from './evaluate.ts';

describe('parseJudgement', () => {
  it.each([
    ['8 - The facts are right.', 8, 'The facts are right.'],
    ['10: Correct.', 10, 'Correct.'],
    ['7/10 – Mostly right.', 7, 'Mostly right.'],
    ['  0 — Made up.  ', 0, 'Made up.'],
    ['Score: 6 - Vague.', 6, 'Vague.'],
    ['**9** - Well supported.', 9, 'Well supported.'],
    ['3. Wrong year.', 3, 'Wrong year.'],
  ])('%j scores %i', (reply, score, reason) => {
    expect(parseJudgement(reply)).toEqual({ score, reason });
  });

  it('a reply without a score keeps its text as the reason, on one line and cut at 150 characters', () => {
    const reply = `I cannot judge this.\n\n${'x'.repeat(300)}`;
    const judged = parseJudgement(reply);
    expect(judged.score).toBeNull();
    expect(judged.reason).toBe(`I cannot judge this. ${'x'.repeat(129)}...`);
  });

  it('a number out of range or a longer number is not a score', () => {
    expect(parseJudgement('11 - Too high.').score).toBeNull();
    expect(parseJudgement('2024 was the year.')).toEqual({ score: null, reason: '2024 was the year.' });
  });
});
