import { expect, it } from 'vitest';
import { newDeviceId } from './owner.ts';

it('cuts distinct device ids of 18 random bytes from its pool, across refills of the pool', () => {
  // 1,000 ids use up the 4 KB pool four times over.
  const ids = Array.from({ length: 1000 }, () => newDeviceId());
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
  expect(new Set(ids).size).toBe(ids.length);
  // Random, not a counter: ids made one after the other share no long prefix.
  const shared = ids.slice(1).filter((id, i) => id.slice(0, 4) === ids[i]!.slice(0, 4)).length;
  expect(shared).toBeLessThan(3);
});
