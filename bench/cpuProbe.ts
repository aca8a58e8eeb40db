// Preloaded (--import, with --expose-gc) into the processes benchmark B5 measures: answers on
// the IPC channel with the process's CPU time in microseconds (all threads, finer than /proc
// ticks) and its memory; 'heap' collects garbage first, so it reports what is really held:
// the JavaScript heap and the memory outside it (`external`, which already counts every
// Buffer's and ArrayBuffer's bytes; adding `arrayBuffers` as well counted those twice).
// Twice, a moment apart: the backing stores of freed buffers are released after the collection
// (by a background sweeper), and a single collection left their memory counted at random.
const collect = (globalThis as { gc?: () => void }).gc;
const report = () => {
  const usage = process.cpuUsage();
  const memory = process.memoryUsage();
  process.send?.({ cpu: usage.user + usage.system, rss: memory.rss, heap: memory.heapUsed + memory.external });
};
process.on('message', (message) => {
  if (message === 'cpu') return report();
  if (message !== 'heap') return;
  collect?.();
  setTimeout(() => {
    collect?.();
    setTimeout(report, 20);
  }, 50);
});
// The IPC channel must not keep a finished process alive.
process.channel?.unref();
