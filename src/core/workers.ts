// A pool of worker threads a plugin runs CPU-heavy work of a visitor's in (src/server/workers/pool.ts),
// so that the server's own thread goes on answering and each job's time and heap are bounded.

export interface WorkerPoolOptions {
  /** Jobs run at once (one per worker). */
  workers: number;
  /** Jobs that may wait for a worker; past it a job is refused as `busy`. */
  queue: number;
  /** Longest a job may take: past it its worker is ended (and replaced for the next job). */
  timeMs: number;
  /** The worker's V8 heap cap, in MB: past it V8 ends the worker. */
  heapMb: number;
}

/** Why a job got no result: a worker ended for its time or heap, or one that failed, or a full queue. */
export type WorkerFailure = 'time' | 'memory' | 'crashed' | 'busy';

export class WorkerPoolError extends Error {
  readonly failure: WorkerFailure;
  constructor(failure: WorkerFailure) {
    super(`worker job failed: ${failure}`);
    this.failure = failure;
  }
}

/** What the module given to the pool exports: the work of one job, run in a worker thread. */
export interface WorkerModule<J, R> {
  run(job: J): R | Promise<R>;
}

export interface WorkerPool<J, R> {
  /** The job's result; rejects with WorkerPoolError (a limit) or an Error (what the worker said). */
  run(job: J): Promise<R>;
  readonly stats: { workersStarted: number; ended: Record<Exclude<WorkerFailure, 'busy'>, number>; refusedBusy: number };
  close(): Promise<void>;
}
