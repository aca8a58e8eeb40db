// The gate's places and the wait it asks of a refusal (Retry-After): from how long imports have
// taken here, until the soonest running one may end, within 5 s and 300 s.
import { describe, expect, it } from 'vitest';
import { ImportGate } from './gate.ts';

describe('the import gate', () => {
  it('lets in up to its limit, one per person, and gives a place back once however often released', () => {
    let now = 1_000_000;
    const gate = new ImportGate(2, () => now);
    const a = gate.enter(1);
    expect('release' in a).toBe(true);
    expect(gate.enter(1)).toEqual({ refused: 'mine', retryAfter: 30 });
    const b = gate.enter(2);
    expect('release' in b).toBe(true);
    expect(gate.enter(3)).toEqual({ refused: 'full', retryAfter: 30 });
    now += 10_000;
    expect(gate.enter(3)).toEqual({ refused: 'full', retryAfter: 20 });
    if (!('release' in a)) throw new Error('expected a place');
    a.release();
    a.release();
    // One place back, not two; imports here took 10 s once: 0.7 × 30 s + 0.3 × 10 s = 24 s.
    const c = gate.enter(3);
    expect('release' in c).toBe(true);
    expect(gate.enter(4)).toEqual({ refused: 'full', retryAfter: 14 });
    expect(gate.enter(1)).toEqual({ refused: 'full', retryAfter: 14 });
  });

  it('asks for 5 s at least, when the running ones are overdue, and 300 s at most', () => {
    let now = 0;
    const gate = new ImportGate(1, () => now);
    const slow = gate.enter(1);
    now += 3_600_000;
    expect(gate.enter(2)).toEqual({ refused: 'full', retryAfter: 5 });
    if (!('release' in slow)) throw new Error('expected a place');
    slow.release();
    // An hour once: 0.3 × 3600 s and more is the typical now, capped at 300 s.
    gate.enter(1);
    expect(gate.enter(2)).toEqual({ refused: 'full', retryAfter: 300 });
  });
});
