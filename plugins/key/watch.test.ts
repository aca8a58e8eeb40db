// The bound of a running call's key re-check (server/watch.ts): many calls of one key share one
// read a period, a revoked key ends every call of it once, a key no call uses any more is not
// read again, and a failed read cuts nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyWatcher } from './server/watch.ts';

const EVERY = 1000;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup() {
  const reads = new Map<number, number>();
  const refused = new Map<number, string>();
  const failing = new Set<number>();
  const errors: unknown[] = [];
  const watcher = keyWatcher<string>(
    async (id) => {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      if (failing.has(id)) throw new Error('database down');
      return refused.get(id);
    },
    EVERY,
    (err) => errors.push(err),
  );
  return { watcher, reads, refused, failing, errors };
}

describe('keyWatcher', () => {
  it('reads a key once a period however many calls of it run, and ends them all once when it is refused', async () => {
    const { watcher, reads, refused } = setup();
    const ended: string[] = [];
    const stops = Array.from({ length: 200 }, () => watcher.watch(1, (why) => ended.push(why)));
    const other: string[] = [];
    watcher.watch(2, (why) => other.push(why));
    watcher.watch(2, (why) => other.push(why));
    expect(reads.size).toBe(0);

    await vi.advanceTimersByTimeAsync(EVERY * 5);
    expect(reads.get(1)).toBe(5);
    expect(reads.get(2)).toBe(5);

    refused.set(1, 'This API key was revoked.');
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(ended).toEqual(Array(200).fill('This API key was revoked.'));
    expect(other).toEqual([]);
    // Key 1 is read no more; key 2 goes on at its own pace; stopping after the end is harmless.
    for (const stop of stops) stop();
    await vi.advanceTimersByTimeAsync(EVERY * 3);
    expect(reads.get(1)).toBe(6);
    expect(reads.get(2)).toBe(9);
    expect(ended).toHaveLength(200);
    expect(watcher.size()).toBe(1);
  });

  it('stops reading a key when its last call ends', async () => {
    const { watcher, reads } = setup();
    const stops = [watcher.watch(7, () => {}), watcher.watch(7, () => {})];
    await vi.advanceTimersByTimeAsync(EVERY * 2);
    stops[0]!();
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(reads.get(7)).toBe(3);
    stops[1]!();
    expect(watcher.size()).toBe(0);
    await vi.advanceTimersByTimeAsync(EVERY * 5);
    expect(reads.get(7)).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts nothing when a read fails, and reads again the next period', async () => {
    const { watcher, reads, failing, refused, errors } = setup();
    const ended: string[] = [];
    watcher.watch(3, (why) => ended.push(why));
    failing.add(3);
    await vi.advanceTimersByTimeAsync(EVERY * 2);
    expect(errors).toHaveLength(2);
    expect(ended).toEqual([]);
    failing.delete(3);
    refused.set(3, 'This API key has expired.');
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(reads.get(3)).toBe(3);
    expect(ended).toEqual(['This API key has expired.']);
  });
});
