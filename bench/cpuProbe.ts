// Preloaded (--import, with --expose-gc) into the processes benchmark B5 measures: answers on
// the IPC channel with the process's CPU time in microseconds (all threads, finer than /proc
// ticks) and its memory; 'heap' collects garbage first, so it reports what is really held.
process.on('message', (message) => {
  if (message !== 'cpu' && message !== 'heap') return;
  if (message === 'heap') (globalThis as { gc?: () => void }).gc?.();
  const usage = process.cpuUsage();
  const memory = process.memoryUsage();
  process.send?.({ cpu: usage.user + usage.system, rss: memory.rss, heap: memory.heapUsed + memory.external + memory.arrayBuffers });
});
// The IPC channel must not keep a finished process alive.
process.channel?.unref();
