// A worker thread of a pool (pool.ts): loads the module the pool runs (a plugin's, which needs
// no node:worker_threads of its own) and answers each job with its `run`'s result or error.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerModule } from '../../core/workers.ts';

export type WorkerRequest<J> = { id: number; job: J };
export type WorkerReply<R> = { id: number; result: R } | { id: number; error: string };

const work = (await import((workerData as { module: string }).module)) as WorkerModule<unknown, unknown>;

parentPort?.on('message', async ({ id, job }: WorkerRequest<unknown>) => {
  let reply: WorkerReply<unknown>;
  try {
    reply = { id, result: await work.run(job) };
  } catch (err) {
    reply = { id, error: String((err as Error)?.message ?? err).slice(0, 200) };
  }
  parentPort?.postMessage(reply);
});
