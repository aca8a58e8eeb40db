import { describe, expect, it } from 'vitest';
import { AttachedMarkers } from './attached.ts';

describe('markers an attach effect put into the input', () => {
  it('come back after a command typed in their place, and are gone once a question was sent', () => {
    const attached = new AttachedMarkers();
    attached.add('+page[https://a.example/]');
    attached.add('+page[https://a.example/]');
    expect(attached.after(':login ada pw', false)).toEqual(['+page[https://a.example/]']);
    // A command that carried it (nothing to put back), then a question without it: dropped.
    expect(attached.after(':x +page[https://a.example/]', false)).toEqual([]);
    expect(attached.after('a question', true)).toEqual([]);
    expect(attached.after(':login ada pw', false)).toEqual([]);
  });

  it('go at the end of the input, each once, a space between', () => {
    expect(AttachedMarkers.into('', ['+page[x]'])).toBe('+page[x] ');
    expect(AttachedMarkers.into('typed  ', ['+page[x]', '+page[y]'])).toBe('typed +page[x] +page[y] ');
    expect(AttachedMarkers.into('+page[x] typed', ['+page[x]'])).toBe('+page[x] typed');
  });
});
