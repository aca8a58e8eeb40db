import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../core/index.ts';
import { AnswerCaps } from './answerCaps.ts';

const visitor = (deviceId: string) => ({ user: null, deviceId, root: false });
const user = (id: number, deviceId: string) => ({ user: { id } as UserRow, deviceId, root: false });

describe('AnswerCaps', () => {
  it('caps a visitor, a user over their devices, and an address; a refusal takes nothing', () => {
    const caps = new AnswerCaps({ user: 2, visitor: 1, address: 3 });
    expect(caps.take(visitor('a'), '1.1.1.1')).toBeDefined();
    expect(caps.take(visitor('a'), '2.2.2.2')).toBeUndefined();
    expect(caps.take(user(7, 'b'), '2.2.2.2')).toBeDefined();
    expect(caps.take(user(7, 'c'), '2.2.2.2')).toBeDefined();
    expect(caps.take(user(7, 'd'), '3.3.3.3')).toBeUndefined();
    // 3.3.3.3 took nothing for the refused user: three fresh visitors fit there.
    for (const id of ['e', 'f', 'g']) expect(caps.take(visitor(id), '3.3.3.3')).toBeDefined();
    expect(caps.take(visitor('h'), '3.3.3.3')).toBeUndefined();
    // An IPv6 /64 is one address.
    expect(caps.take(visitor('i'), '2001:db8::1')).toBeDefined();
    expect(caps.take(visitor('j'), '2001:db8::2')).toBeDefined();
    expect(caps.take(visitor('k'), '2001:db8:0:0:ffff::3')).toBeDefined();
    expect(caps.take(visitor('l'), '2001:db8::4')).toBeUndefined();
    expect(caps.take(visitor('m'), '2001:db8:0:1::4')).toBeDefined();
  });

  it('gives a slot back once, however often its release is called', () => {
    const caps = new AnswerCaps({ user: 1, visitor: 1, address: 1 });
    const release = caps.take(visitor('a'), '1.1.1.1')!;
    release();
    release();
    const again = caps.take(visitor('a'), '1.1.1.1');
    expect(again).toBeDefined();
    expect(caps.take(visitor('b'), '1.1.1.1')).toBeUndefined();
  });

  it('has no cap at 0', () => {
    const caps = new AnswerCaps({ user: 0, visitor: 0, address: 0 });
    for (let i = 0; i < 1000; i++) expect(caps.take(visitor('a'), '1.1.1.1')).toBeDefined();
  });

  it('keeps counting right while thousands of visitors come and go (the zeros are swept)', () => {
    const caps = new AnswerCaps({ user: 4, visitor: 2, address: 1_000_000 });
    const held = [caps.take(visitor('stays'), '9.9.9.9')!, caps.take(visitor('stays'), '9.9.9.9')!];
    for (let i = 0; i < 10_000; i++) caps.take(visitor(`v${i}`), `10.0.${i >> 8}.${i & 255}`)!();
    expect(caps.take(visitor('stays'), '9.9.9.9')).toBeUndefined();
    held[0]!();
    expect(caps.take(visitor('stays'), '9.9.9.9')).toBeDefined();
    expect(caps.take(visitor('v5'), '10.0.0.5')).toBeDefined();
  });
});
