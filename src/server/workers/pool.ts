// A generic pool of worker threads (src/core/workers.ts) running a module's `run(job)` in each
// (thread.ts): `workers` jobs at once, `queue` more waiting and the rest refused, each worker's
// heap capped, each job's time capped by ending its worker, which the next job replaces. Idle
// workers do not keep the process alive and end after a while. (src/server/uploads/extractPool.ts is the documents' own, with a memory watch too.)
import { Worker } from 'node:worker_threads';
import { WorkerPoolError, type WorkerFailure, type WorkerPool, type WorkerPoolOptions } from '../../core/workers.ts';
import type { WorkerReply, WorkerRequest } from './thread.ts';

const IDLE_MS = 30_000;
/** Each worker runs this, which loads the pool's module (its `run`). */
const THREAD = new URL('./thread.ts', import.meta.url);

interface Job<J, R> {
  id: number;
  job: J;
  resolve(result: R): void;
  reject(err: Error): void;
}

interface Slot<J, R> {
  worker: Worker;
  job?: Job<J, R>;
  timer?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  ended: boolean;
}

export function createWorkerPool<J, R>(module: URL, options: WorkerPoolOptions): WorkerPool<J, R> {
  const slots = new Set<Slot<J, R>>();
  const queue: Job<J, R>[] = [];
  let next = 1;
  const stats = { workersStarted: 0, ended: { time: 0, memory: 0, crashed: 0 }, refusedBusy: 0 };

  const end = async (slot: Slot<J, R>) => {
    slot.ended = true;
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    slots.delete(slot);
    await slot.worker.terminate().catch(() => {});
  };

  /** Ends a worker for a limit (or because it died): its job fails, the queue goes on. */
  const fail = (slot: Slot<J, R>, why: Exclude<WorkerFailure, 'busy'>) => {
    if (slot.ended) return;
    const job = slot.job;
    if (job) stats.ended[why]++;
    void end(slot);
    job?.reject(new WorkerPoolError(why));
    dispatch(undefined);
  };

  const free = (): Slot<J, R> | undefined => {
    for (const slot of slots) if (!slot.job && !slot.ended) return slot;
    if (slots.size >= options.workers) return undefined;
    const worker = new Worker(THREAD, { workerData: { module: module.href }, resourceLimits: { maxOldGenerationSizeMb: options.heapMb } });
    stats.workersStarted++;
    const slot: Slot<J, R> = { worker, ended: false };
    slots.add(slot);
    worker.on('message', (reply: WorkerReply<R>) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      clearTimeout(slot.timer);
      slot.job = undefined;
      if ('result' in reply) job.resolve(reply.result);
      else job.reject(new Error(reply.error));
      dispatch(slot);
    });
    worker.on('error', (err: Error & { code?: string }) => fail(slot, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed'));
    worker.on('exit', () => fail(slot, 'crashed'));
    return slot;
  };

  const start = (slot: Slot<J, R>, job: Job<J, R>) => {
    clearTimeout(slot.idle);
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, job: job.job } satisfies WorkerRequest<J>);
    slot.timer = setTimeout(() => fail(slot, 'time'), options.timeMs);
  };

  /** The next waiting job, or the worker goes idle (and ends after a while). */
  const dispatch = (slot: Slot<J, R> | undefined) => {
    const job = queue.shift();
    if (job) {
      const to = slot && !slot.ended ? slot : free();
      if (to) return start(to, job);
      queue.unshift(job);
      return;
    }
    if (!slot || slot.ended) return;
    slot.worker.unref();
    slot.idle = setTimeout(() => void end(slot), IDLE_MS);
    slot.idle.unref();
  };

  return {
    stats,
    run: (payload) =>
      new Promise<R>((resolve, reject) => {
        const job: Job<J, R> = { id: next++, job: payload, resolve, reject };
        const slot = free();
        if (slot) return start(slot, job);
        if (queue.length >= options.queue) {
          stats.refusedBusy++;
          return reject(new WorkerPoolError('busy'));
        }
        queue.push(job);
      }),
    close: async () => {
      for (const job of queue.splice(0)) job.reject(new WorkerPoolError('busy'));
      await Promise.all([...slots].map((slot) => end(slot)));
    },
  };
}
