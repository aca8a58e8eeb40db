// Preloaded (--import) into the terminal processes benchmark B9 measures: the process's CPU
// time (µs, all threads; and its system part) sampled every 20 ms against the wall clock (ms since the epoch, which
// the benchmark shares with the fake provider's stamps), written to BENCH_CPU_FILE at exit.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_FILE;
const samples: [number, number, number][] = [];
const now = () => performance.timeOrigin + performance.now();
const sample = () => {
  const usage = process.cpuUsage();
  samples.push([now(), usage.user + usage.system, usage.system]);
};
if (file) {
  sample();
  setInterval(sample, 20).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, JSON.stringify(samples));
  });
}
