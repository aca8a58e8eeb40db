// SQLite checkpoints off the event loop. In WAL mode a commit that finds the log past
// `wal_autocheckpoint` pages copies it into the database file (and syncs it) before it
// returns: tens of milliseconds during which every stream the server relays stands still
// (benchmark B5's p99 latency). Here a worker thread with its own connection checkpoints
// whenever the log has grown past `thresholdBytes` (32 MB unless told otherwise), and the
// server's connection only does so itself as a safety net, at a size the worker keeps it from
// reaching.
import { Worker } from 'node:worker_threads';

/** What the worker reports after each checkpoint it tried: frames in the log, frames copied. */
interface Report {
  checkpoints: number;
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Resolves with the worker's next report (tests wait for one). */
  next(): Promise<Report>;
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, options: { intervalMs?: number; thresholdBytes?: number } = {}): Checkpointer {
  const worker = new Worker(new URL('./checkpointWorker.ts', import.meta.url), {
    workerData: { file, intervalMs: options.intervalMs ?? 1000, thresholdBytes: options.thresholdBytes ?? 32 * 1024 * 1024 },
  });
  // The worker must not keep a finished server's process alive.
  worker.unref();
  const waiting: ((report: Report) => void)[] = [];
  // A worker that dies, or a checkpoint that fails, leaves the checkpoints to the server's own
  // connection (the safety net); the operator is told once, on stderr.
  let warned = false;
  const warn = (why: string) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`SQLite checkpoints fall back to the server's connection (past 80 MB of log): ${why}`);
  };
  worker.on('message', (message: Report | { error: string }) => {
    if ('error' in message) return warn(message.error);
    for (const resolve of waiting.splice(0)) resolve(message);
  });
  worker.on('error', (err) => warn(err.message));
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    stop: async () => {
      // Held again while it stops: an unreferenced worker let a process whose last work was
      // this stop exit before the database was closed.
      worker.ref();
      worker.postMessage('stop');
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        setTimeout(() => void worker.terminate().then(() => resolve()), 2000).unref();
      });
    },
  };
}
