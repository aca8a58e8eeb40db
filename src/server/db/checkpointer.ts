// SQLite checkpoints off the event loop. In WAL mode a commit that finds the log past
// `wal_autocheckpoint` pages copies it into the database file (and syncs it) before it
// returns: tens of milliseconds during which every stream the server relays stands still
// (benchmark B5's p99 latency). Here a worker thread with its own connection checkpoints
// whenever the log has grown past `thresholdBytes` (32 MB unless told otherwise), and the
// server's connection only does so itself as a safety net, at a size the worker keeps it from
// reaching.
import { Worker } from 'node:worker_threads';

export interface Checkpointer {
  /** Resolves with the worker's latest report (tests wait for one). */
  next(): Promise<{ checkpoints: number; log: number; checkpointed: number }>;
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, options: { intervalMs?: number; thresholdBytes?: number } = {}): Checkpointer {
  const worker = new Worker(new URL('./checkpointWorker.ts', import.meta.url), {
    workerData: { file, intervalMs: options.intervalMs ?? 1000, thresholdBytes: options.thresholdBytes ?? 32 * 1024 * 1024 },
  });
  // The worker must not keep a finished server's process alive.
  worker.unref();
  const waiting: ((report: { checkpoints: number; log: number; checkpointed: number }) => void)[] = [];
  worker.on('message', (message: { checkpoints: number; log: number; checkpointed: number } | { error: string }) => {
    if ('error' in message) return;
    for (const resolve of waiting.splice(0)) resolve(message);
  });
  // A worker that dies leaves the checkpoints to the server's own connection (the safety net);
  // the operator is told once, on stderr.
  worker.on('error', (err) => process.emitWarning(`SQLite checkpoints fall back to the server's connection: ${err.message}`));
  let warned = false;
  worker.on('message', (message: { error?: string }) => {
    if (!message.error || warned) return;
    warned = true;
    process.emitWarning(`SQLite checkpoint failed (the server's connection checkpoints past 80 MB): ${message.error}`);
  });
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    stop: async () => {
      worker.postMessage('stop');
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        setTimeout(() => void worker.terminate().then(() => resolve()), 2000).unref();
      });
    },
  };
}
