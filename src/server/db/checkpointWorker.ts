// The SQLite checkpointer's thread (see checkpointer.ts): its own connection to the database
// copies the write-ahead log into the database file whenever the log has grown past a size,
// so the server's event loop never stops for it.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs, thresholdBytes } = workerData as { file: string; intervalMs: number; thresholdBytes: number };
const db = new SQLite(file);
db.pragma('busy_timeout = 5000');

function walBytes(): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

let checkpoints = 0;
// The log file keeps its size once grown (SQLite writes it again from the start after a
// complete checkpoint), so past the threshold the pragma runs on every tick; with nothing to
// copy it only reads the log's index.
const timer = setInterval(() => {
  if (walBytes() < thresholdBytes) return;
  try {
    // PASSIVE: copies what it can without waiting for the server's reads or writes.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (result && result.checkpointed > 0) checkpoints++;
    parentPort?.postMessage({ checkpoints, log: result?.log ?? 0, checkpointed: result?.checkpointed ?? 0 });
  } catch (err) {
    parentPort?.postMessage({ error: String((err as Error)?.message ?? err) });
  }
}, intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
