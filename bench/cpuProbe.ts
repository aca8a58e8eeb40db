// Preloaded (--import, with --expose-gc) into the processes benchmark B5 measures: answers on
// the IPC channel with the process's CPU time in microseconds (all threads, finer than /proc
// ticks) and its memory; 'heap' collects garbage first, so it reports what is really held:
// the JavaScript heap and the memory outside it (`external`, which already counts every
// Buffer's and ArrayBuffer's bytes; adding `arrayBuffers` as well counted those twice).
// Until it settles: the backing stores of freed buffers are released after the collection (by
// a background sweeper), and a single collection left their memory counted at random.
const collect = (globalThis as { gc?: () => void }).gc;
// Each reply carries its request's id: a reply that comes after its caller stopped waiting
// (two requests in flight at once) must not answer the next request.
const report = (id: number) => {
  const usage = process.cpuUsage();
  const memory = process.memoryUsage();
  process.send?.({ id, cpu: usage.user + usage.system, rss: memory.rss, heap: memory.heapUsed + memory.external });
};
const held = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.external;
};
process.on('message', (message) => {
  const { id, what } = message as { id: number; what: 'cpu' | 'heap' };
  if (what === 'cpu') return report(id);
  if (what !== 'heap') return;
  // Collected until two readings 50 ms apart agree within 256 KB (at most 20 times): after a
  // burst of network reads, thousands of freed read buffers can take the sweeper a while.
  let last = Number.POSITIVE_INFINITY;
  let rounds = 0;
  const settle = () => {
    collect?.();
    const now = held();
    if (Math.abs(now - last) < 256 * 1024 || ++rounds >= 20) return report(id);
    last = now;
    setTimeout(settle, 50);
  };
  settle();
});
// The IPC channel must not keep a finished process alive.
process.channel?.unref();
