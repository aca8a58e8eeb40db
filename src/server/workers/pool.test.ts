// The generic worker pool: a job past its time cap ends its worker (replaced for the next job),
// what waits is bounded and the rest refused, and a job's own error comes back as an error.
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPoolError, type WorkerPool } from '../../core/workers.ts';
import { createWorkerPool } from './pool.ts';

const MODULE = new URL('../../../tests/fixtures/busyWorker.ts', import.meta.url);
type Job = { ms: number; fail?: boolean };
let pool: WorkerPool<Job, number> | undefined;
afterEach(async () => {
  await pool?.close();
});

const failure = (p: Promise<unknown>) => p.then(() => 'resolved', (err: unknown) => (err instanceof WorkerPoolError ? err.failure : String(err)));

describe('the worker pool', () => {
  it('ends a job past its time cap and replaces the worker for the next job', async () => {
    pool = createWorkerPool<Job, number>(MODULE, { workers: 1, queue: 4, timeMs: 1500, heapMb: 64 });
    expect(await failure(pool.run({ ms: 60_000 }))).toBe('time');
    expect(await pool.run({ ms: 1 })).toBe(1);
    expect(pool.stats).toMatchObject({ workersStarted: 2, ended: { time: 1 } });
  }, 30_000);

  it('keeps at most `queue` jobs waiting and refuses the rest; a job that throws says why', async () => {
    pool = createWorkerPool<Job, number>(MODULE, { workers: 1, queue: 2, timeMs: 20_000, heapMb: 64 });
    const jobs = [pool.run({ ms: 300 }), pool.run({ ms: 1 }), pool.run({ fail: true, ms: 0 }), pool.run({ ms: 1 })];
    expect(await Promise.all(jobs.map(failure))).toEqual(['resolved', 'resolved', 'Error: asked to fail', 'busy']);
    expect(pool.stats.refusedBusy).toBe(1);
    expect(pool.stats.workersStarted).toBe(1);
  }, 30_000);
});
