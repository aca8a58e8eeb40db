// The worker threads documents are read in (extractWorker.ts), so that what a document costs is
// bounded whoever built it (DESIGN.md §4), and the server's own thread goes on answering:
// - each worker's V8 heap is capped (resourceLimits): past it V8 ends the worker;
// - what V8 does not cap, the worker's ArrayBuffers (inflated streams, pdf.js's buffers), is
//   watched every few milliseconds through the worker's heap statistics, and past its cap the
//   worker is ended;
// - each document has EXTRACT_TIME_MS; past it the worker is ended;
// - EXTRACT_WORKERS documents are read at once and EXTRACT_QUEUE wait; more are refused.
// A worker that was ended is replaced by a new one for the next document; nothing else on the
// server notices. Workers are kept for the next document and end after a while without one.
import { Worker } from 'node:worker_threads';
import type { ExtractJob, ExtractResult } from './extractWorker.ts';
import {
  EXTRACT_EXTERNAL_MB,
  EXTRACT_HEAP_MB,
  EXTRACT_IDLE_MS,
  EXTRACT_MEMORY_MB,
  EXTRACT_QUEUE,
  EXTRACT_TIME_MS,
  EXTRACT_WATCH_MS,
  EXTRACT_WORKERS,
  EXTRACT_YOUNG_MB,
} from './limits.ts';
import { RefusedError, type Refusal } from './refusal.ts';

interface Job {
  id: number;
  kind: ExtractJob['kind'];
  data: Uint8Array;
  resolve(text: string): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  /** Set once the worker is being ended: it takes no more jobs. */
  ended: boolean;
}

/** What the pool has done, for tests and the operator's curiosity. */
export interface ExtractStats {
  workersStarted: number;
  /** Workers ended for a limit, by the limit. */
  ended: { time: number; memory: number; crashed: number };
  refusedBusy: number;
  /** The highest external (ArrayBuffer) memory seen in one worker, in bytes. */
  peakExternal: number;
}

export class ExtractPool {
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #next = 1;
  readonly stats: ExtractStats = { workersStarted: 0, ended: { time: 0, memory: 0, crashed: 0 }, refusedBusy: 0, peakExternal: 0 };

  /** The text of a PDF or DOCX, or a RefusedError saying which limit it passed. */
  extract(kind: ExtractJob['kind'], data: Uint8Array): Promise<string> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.#next++, kind, data, resolve, reject };
      const slot = this.#freeSlot();
      if (slot) return this.#start(slot, job);
      if (this.#queue.length >= EXTRACT_QUEUE) {
        this.stats.refusedBusy++;
        return reject(new RefusedError({ kind: 'busy' }));
      }
      this.#queue.push(job);
    });
  }

  /** Workers alive now (idle or busy). */
  get workers(): number {
    return this.#slots.size;
  }

  /** Ends every worker (their jobs are refused as damaged); a later job starts new ones. */
  async close(): Promise<void> {
    for (const job of this.#queue.splice(0)) job.reject(new RefusedError({ kind: 'busy' }));
    await Promise.all([...this.#slots].map((slot) => this.#end(slot)));
  }

  #freeSlot(): Slot | undefined {
    for (const slot of this.#slots) if (!slot.job && !slot.ended) return slot;
    if (this.#slots.size >= EXTRACT_WORKERS) return undefined;
    const worker = new Worker(new URL('./extractWorker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: EXTRACT_HEAP_MB, maxYoungGenerationSizeMb: EXTRACT_YOUNG_MB },
      // Its stdout and stderr are the server's: pdf.js's warnings about a broken file would
      // otherwise fill the log.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    this.stats.workersStarted++;
    const slot: Slot = { worker, ended: false };
    this.#slots.add(slot);
    worker.on('message', (result: ExtractResult) => {
      const job = slot.job;
      if (!job || job.id !== result.id) return;
      this.#finish(slot);
      if ('text' in result) job.resolve(result.text);
      else job.reject(new RefusedError(result.refusal));
      this.#dispatch(slot);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      // V8 ended it past its heap (ERR_WORKER_OUT_OF_MEMORY), or it failed on its own.
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#fail(slot, memory ? { kind: 'memory', mb: EXTRACT_MEMORY_MB } : undefined, memory ? 'memory' : 'crashed');
    });
    worker.on('exit', () => this.#fail(slot, undefined, 'crashed'));
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.job = job;
    slot.worker.ref();
    // The worker gets its own copy, moved rather than copied again.
    const data = new Uint8Array(job.data);
    job.data = new Uint8Array(0);
    slot.worker.postMessage({ id: job.id, kind: job.kind, data } satisfies ExtractJob, [data.buffer]);
    slot.timer = setTimeout(() => this.#fail(slot, { kind: 'time', seconds: EXTRACT_TIME_MS / 1000 }, 'time'), EXTRACT_TIME_MS);
    slot.watch = setInterval(() => {
      slot.worker.getHeapStatistics().then(
        (heap) => {
          const external = (heap as { external_memory?: number }).external_memory ?? 0;
          if (external > this.stats.peakExternal) this.stats.peakExternal = external;
          if (external > EXTRACT_EXTERNAL_MB * 1024 * 1024 && slot.job === job) this.#fail(slot, { kind: 'memory', mb: EXTRACT_MEMORY_MB }, 'memory');
        },
        () => {},
      );
    }, EXTRACT_WATCH_MS);
  }

  #finish(slot: Slot): void {
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    slot.timer = slot.watch = undefined;
    slot.job = undefined;
  }

  /** The next waiting job, or the worker goes idle (and ends after a while). */
  #dispatch(slot: Slot | undefined): void {
    const job = this.#queue.shift();
    if (job) {
      const free = slot && !slot.ended ? slot : this.#freeSlot();
      if (free) return this.#start(free, job);
      this.#queue.unshift(job);
      return;
    }
    if (!slot || slot.ended) return;
    // An idle worker does not keep the process alive.
    slot.worker.unref();
    slot.idle = setTimeout(() => void this.#end(slot), EXTRACT_IDLE_MS);
    slot.idle.unref();
  }

  /** Ends a worker for a limit (or because it died): its job is refused, the queue goes on. */
  #fail(slot: Slot, refusal: Refusal | undefined, why: keyof ExtractStats['ended']): void {
    if (slot.ended) return;
    const job = slot.job;
    if (job) this.stats.ended[why]++;
    void this.#end(slot);
    job?.reject(new RefusedError(refusal ?? { kind: 'damaged', type: job.kind === 'pdf' ? 'PDF' : 'DOCX' }));
    this.#dispatch(undefined);
  }

  async #end(slot: Slot): Promise<void> {
    slot.ended = true;
    this.#finish(slot);
    if (slot.idle) clearTimeout(slot.idle);
    this.#slots.delete(slot);
    await slot.worker.terminate().catch(() => {});
  }
}

/** The server's one pool (a process reads at most EXTRACT_WORKERS documents at once). */
export const extractPool = new ExtractPool();
