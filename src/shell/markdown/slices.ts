// Time slices for rendering finished blocks: a long answer arriving at once (or a long log
// opened) parsed every block in one task (32 KB of rich markdown: one 233-367 ms block of
// main-thread work). With slicing on, one synchronous render parses blocks for SLICE_MS at
// most, top first; the rest are parsed in later tasks of SLICE_MS each, in document order
// (React renders each slice's blocks in one batch after it), so the page paints and takes
// input between. (flushSync here brought react-dom's index into the first paint's JS.)
// Work nobody waits for (what is far from the view: screen readers, find-in-page and copy
// read it too) runs in idle time once no slice is waiting, one job an idle period, the job
// with the lowest rank first (ranks are read when it is picked, so they may change).

/** How far beyond the view a group of blocks counts as near, and is parsed (IntersectionObserver). */
export const NEAR_MARGIN = '100% 0px';

/** Parsing time a render pass or a later slice may spend before handing the rest on (ms). */
export const SLICE_MS = 8;

interface Job {
  run: () => void;
  cancelled: boolean;
}

const queue: Job[] = [];
let scheduled = false;
let passEnd = 0;
let passOpen = false;
const channel = typeof MessageChannel === 'undefined' ? undefined : new MessageChannel();

/** How long idle work may wait for an idle period on a busy page (ms). */
export const IDLE_TIMEOUT_MS = 500;

/** What the slices did (tests): how many ran, the most jobs (blocks) one ran, jobs asked for,
 *  the most blocks one render pass parsed, idle jobs run. */
export const sliceStats = { slices: 0, mostJobs: 0, deferred: 0, mostInPass: 0, idleRuns: 0 };
let inPass = 0;

/** Jobs waiting for a slice (tests: the page has settled when none is left). */
export const pendingSlices = (): number => queue.filter((job) => !job.cancelled).length;

/** Whether the current synchronous pass (one render, up to its next microtask) has time left.
 *  The first call of a pass opens it, so a pass always parses at least one block. */
export function passHasTime(): boolean {
  const now = performance.now();
  if (!passOpen) {
    passOpen = true;
    passEnd = now + SLICE_MS;
    inPass = 0;
    queueMicrotask(() => (passOpen = false));
  }
  if (now >= passEnd) return false;
  sliceStats.mostInPass = Math.max(sliceStats.mostInPass, ++inPass);
  return true;
}

/** Runs `run` in a later slice (in the order asked); returns a cancel function. */
export function later(run: () => void): () => void {
  const job: Job = { run, cancelled: false };
  queue.push(job);
  sliceStats.deferred++;
  schedule();
  return () => void (job.cancelled = true);
}

function schedule(): void {
  if (scheduled || !queue.length) return;
  scheduled = true;
  if (channel) channel.port2.postMessage(null);
  else setTimeout(slice, 0);
}

function slice(): void {
  scheduled = false;
  const start = performance.now();
  const done: Job[] = [];
  // Jobs parse (and cache) here and set their components' state, rendered in one batch.
  while (queue.length && performance.now() - start < SLICE_MS) {
    const job = queue.shift()!;
    if (job.cancelled) continue;
    job.run();
    done.push(job);
  }
  if (done.length) {
    sliceStats.slices++;
    sliceStats.mostJobs = Math.max(sliceStats.mostJobs, done.length);
  }
  schedule();
}

if (channel) channel.port1.onmessage = slice;

interface IdleJob {
  run: () => void;
  rank: () => number;
}

const idleJobs = new Set<IdleJob>();
let idleScheduled = false;

/** Idle jobs waiting (tests). */
export const pendingIdle = (): number => idleJobs.size;

/** Runs `run` in idle time once no slice is waiting, lowest `rank()` first among the idle jobs
 *  then waiting; returns a cancel function. */
export function whenIdle(run: () => void, rank: () => number): () => void {
  const job: IdleJob = { run, rank };
  idleJobs.add(job);
  scheduleIdle();
  return () => void idleJobs.delete(job);
}

function scheduleIdle(): void {
  if (idleScheduled || !idleJobs.size) return;
  idleScheduled = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(idleSlice, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(idleSlice, 0);
}

function idleSlice(): void {
  idleScheduled = false;
  // Slices first: they hold what is near the view.
  if (pendingSlices()) return scheduleIdle();
  let best: IdleJob | undefined;
  let bestRank = Infinity;
  for (const job of idleJobs) {
    const rank = job.rank();
    if (!best || rank < bestRank) [best, bestRank] = [job, rank];
  }
  if (best) {
    idleJobs.delete(best);
    sliceStats.idleRuns++;
    best.run();
  }
  scheduleIdle();
}
