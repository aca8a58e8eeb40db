// How a cost grows with its input, in place of a wall-clock bound: a fixed number of
// milliseconds fails on a loaded machine and passes a quadratic algorithm on a fast one, while
// the ratio between two sizes run in the same process holds on both. Each size's time is the
// fastest of a few runs: load only ever slows a run, so the fastest is the least disturbed.

/** The fastest of `runs` runs of `work`, in ms. */
export function fastestMs(work: () => void, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * The time of `work(large)` over `work(small)`, divided by `large / small`: about 1 when the cost
 * grows linearly, `large / small` times that when it grows with the square. The two sizes run in
 * turn, so that both meet the same load. The small size should take a few milliseconds at
 * least, so that the timer's resolution does not count.
 */
export function growthOverLinear(work: (size: number) => void, small: number, large: number, runs = 5): number {
  work(small); // warms the JIT, which would otherwise count against the small size alone
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < runs; i++) {
    smallMs = Math.min(smallMs, fastestMs(() => work(small), 1));
    largeMs = Math.min(largeMs, fastestMs(() => work(large), 1));
  }
  return largeMs / Math.max(smallMs, 0.05) / (large / small);
}
