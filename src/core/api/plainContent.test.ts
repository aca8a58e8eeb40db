// The regular-expression read of plain content chunks must agree with JSON.parse on every
// chunk it takes, and leave every other chunk to the full parse.
import { describe, expect, it } from 'vitest';
import { plainContent } from './plainContent.ts';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', system_fingerprint: 'fp', choices, ...extra });
const choice = (delta: unknown, finish: string | null = null, index = 0) => ({ index, delta, logprobs: null, finish_reason: finish });

// Texts a model may send, with everything JSON must escape and patterns that look like keys.
const TEXTS = [
  'Hello', '', ' ', 'w1 ', 'Grüße 世界 👋', 'a "quote"', 'back\\slash', 'ends with \\', '\\"', 'line\nbreak\ttab\r',
  '"tool_calls"', '"finish_reason":null', '"usage":{', '"delta":{"content":"x"}', '"error"', '}', '{"a":1}', '\u0000\u001f\u2028',
  '<script>alert(1)</script>', '"', '\\\\"', 'x'.repeat(5000), '"}]}', '"},"finish_reason":null}],"x":{"a":',
];

describe('plain content chunks', () => {
  it('reads the text of a plain content delta exactly as JSON.parse does, in the shapes servers send', () => {
    const shapes: ((text: string) => string)[] = [
      (text) => chunk([choice({ content: text })]),
      (text) => chunk([choice({ content: text })], { usage: null }),
      // OpenAI's own: service_tier before the fingerprint, an obfuscation field after usage.
      (text) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt', service_tier: 'default', system_fingerprint: 'fp', choices: [choice({ content: text })], usage: null, obfuscation: 'aB3' }),
      // vLLM: no fingerprint, no usage.
      (text) => JSON.stringify({ id: 'cmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [choice({ content: text })] }),
      // Without logprobs.
      (text) => JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    ];
    for (const text of TEXTS) {
      for (const shape of shapes) {
        const event = shape(text);
        expect(plainContent(event), event).toBe(JSON.parse(event).choices[0].delta.content);
      }
    }
  });

  it('leaves every other chunk to the full parse', () => {
    const others = [
      chunk([choice({ role: 'assistant', content: 'Hi' })]),
      chunk([choice({ content: 'Hi', refusal: null })]),
      chunk([choice({ content: 'Hi' }, 'stop')]),
      chunk([choice({ content: 'Hi' }, 'length')]),
      chunk([choice({ content: 'a' }), choice({ content: 'b' }, null, 1)]),
      chunk([choice({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] })]),
      chunk([choice({ content: null, tool_calls: [] })]),
      chunk([choice({ content: 'Hi' })], { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      chunk([], { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      JSON.stringify({ error: { message: 'overloaded' }, choices: [choice({ content: 'x' })] }),
      JSON.stringify({ choices: [choice({ content: 'x' })], error: 'overloaded' }),
      // A later `choices` wins in JSON.parse: never read the first one.
      '{"choices":[{"index":0,"delta":{"content":"first"},"finish_reason":null}],"choices":null}',
      // llama.cpp's order.
      JSON.stringify({ choices: [{ finish_reason: null, index: 0, delta: { content: 'x' } }], created: 1, id: 'c', object: 'chat.completion.chunk' }),
      '{"choices":[{"index":0,"delta":{"content":"unterminated}]}',
      '{"choices":[{"index":0,"delta":{"content":"raw\u0001control"},"finish_reason":null}]}',
      '{nope',
      '[DONE]',
    ];
    for (const event of others) expect(plainContent(event), event).toBeUndefined();
  });

  it('agrees with JSON.parse on random chunks, or declines them', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T,>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const alphabet = ['a', ' ', '"', '\\', '\n', 'é', '😀', '{', '}', ':', ',', 'null', 'delta', 'content', '\u0001', '/', '\\u'];
    let taken = 0;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => pick(alphabet)).join('');
      const delta = pick([{ content: text }, { content: text }, { role: 'assistant', content: text }, { content: text, extra: text }]);
      const finish = pick([null, null, null, 'stop']);
      const choices = pick([[choice(delta, finish)], [choice(delta, finish)], [choice(delta, finish), choice({ content: text }, null, 1)]]);
      const event = chunk(choices, pick([{}, { usage: null }, { usage: { prompt_tokens: 1 } }, { note: text }]));
      const fast = plainContent(event);
      if (fast === undefined) continue;
      taken++;
      const parsed = JSON.parse(event);
      expect(parsed.choices).toHaveLength(1);
      expect(parsed.choices[0].finish_reason).toBeNull();
      expect(Object.keys(parsed.choices[0].delta)).toEqual(['content']);
      expect(parsed.usage ?? null).toBeNull();
      expect(fast).toBe(parsed.choices[0].delta.content);
    }
    expect(taken).toBeGreaterThan(300);
  });
});
