import { expect, it } from 'vitest';
import { AnswerText } from './answerText.ts';

it('keeps every piece in order across its batches, read at any moment', () => {
  const answer = new AnswerText();
  let expected = '';
  expect(answer.text).toBe('');
  for (let i = 0; i < 1000; i++) {
    const piece = i % 7 === 0 ? '' : `${i}é😀 `;
    answer.add(piece);
    expected += piece;
    // Reading in the middle of a batch must not lose or repeat what is still unjoined.
    if (i % 97 === 0) expect(answer.text).toBe(expected);
  }
  expect(answer.text).toBe(expected);
  expect(answer.text).toBe(expected);
});
