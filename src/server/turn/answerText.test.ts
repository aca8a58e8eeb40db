import { expect, it } from 'vitest';
import { AnswerText } from './answerText.ts';

it('keeps every piece in order as its buffer grows, read at any moment', () => {
  const answer = new AnswerText();
  let expected = '';
  expect(answer.text).toBe('');
  for (let i = 0; i < 3000; i++) {
    // ASCII, two- and three-byte characters, emoji (four bytes), empty pieces, long pieces.
    const piece = i % 7 === 0 ? '' : i % 500 === 1 ? 'x€'.repeat(2000) : `${i}é中😀 `;
    answer.add(piece);
    expected += piece;
    if (i % 97 === 0) expect(answer.text).toBe(expected);
  }
  expect(answer.text).toBe(expected);
  expect(answer.text).toBe(expected);
});

it('keeps a surrogate pair whole when a provider splits it between two pieces', () => {
  const answer = new AnswerText();
  const pieces = ['smile \ud83d', '\ude00 and ', '\ud83d', '\udc4d', ' end'];
  for (const piece of pieces) answer.add(piece);
  expect(answer.text).toBe('smile 😀 and 👍 end');
  // A high half still waiting is part of the answer read so far.
  const waiting = new AnswerText();
  waiting.add('a\ud83d');
  expect(waiting.text).toBe('a\ud83d');
  waiting.add('\ude00');
  expect(waiting.text).toBe('a😀');
});

it('keeps short ASCII pieces, pieces that turn non-ASCII part-way and long pieces alike', () => {
  const answer = new AnswerText();
  const pieces = ['plain ', 'café ', 'é', ' x', 'a'.repeat(64), `${'b'.repeat(65)}ü`, 'ok 中文 ', '\u0000\u007f', '😀'.repeat(40), ''];
  let expected = '';
  for (let round = 0; round < 200; round++) {
    for (const piece of pieces) {
      answer.add(piece);
      expected += piece;
    }
  }
  expect(answer.text).toBe(expected);
  expect(Buffer.byteLength(answer.text)).toBe(Buffer.byteLength(expected));
});
