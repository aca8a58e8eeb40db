// Group commit: writes that arrive together share one transaction.
// Why: with hundreds of answers streaming, they finish together, and each saved its turn in a
// transaction of its own. A commit costs more than the rows it writes (on SQLite the same few
// pages, the newest logs and their indexes, are copied to the log once per commit; on
// PostgreSQL and MySQL each commit waits for a flush to disk), and those saves landing in the
// same few milliseconds were what delayed the other streams (benchmark B5's p99).
// One batch is written at a time; what arrives meanwhile waits for the next, so a batch grows
// exactly as much as the database is behind. A batch that fails is written again one write
// per transaction, so a bad write fails alone and the others are kept. A batch that fails
// because the database cannot be reached (a restart) is tried again until it is back, for
// `waitMs` at most, so that answers finished meanwhile are kept rather than lost.
import type { Kysely, Transaction } from 'kysely';
import { isConnectionLost } from './connectionLost.ts';

/** How long a write waits for a database that cannot be reached (a restart takes seconds). */
export const DATABASE_WAIT_MS = 15_000;

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit<DB, T, R> {
  private queue: Pending<T, R>[] = [];
  private busy = false;
  private readonly db: Kysely<DB>;
  private readonly write: (trx: Transaction<DB>, item: T) => Promise<R>;
  private readonly maxBatch: number;

  /**
   * `maxBatch` bounds how long one batch holds the database: a turn's rows take about 50 µs
   * on SQLite, where a batch runs on the event loop without a break.
   */
  private readonly waitMs: number;

  constructor(db: Kysely<DB>, write: (trx: Transaction<DB>, item: T) => Promise<R>, maxBatch = 32, waitMs = DATABASE_WAIT_MS) {
    this.db = db;
    this.write = write;
    this.maxBatch = maxBatch;
    this.waitMs = waitMs;
  }

  private writeAll(batch: Pending<T, R>[]): Promise<R[]> {
    return this.db.transaction().execute(async (trx) => {
      const out: R[] = [];
      for (const pending of batch) out.push(await this.write(trx, pending.item));
      return out;
    });
  }

  /** The batch written, waiting out a database that cannot be reached; other failures thrown at once. */
  private async writeWhenReachable(batch: Pending<T, R>[]): Promise<R[]> {
    const deadline = Date.now() + this.waitMs;
    for (let pause = 100; ; pause = Math.min(pause * 2, 1_000)) {
      try {
        return await this.writeAll(batch);
      } catch (err) {
        if (!isConnectionLost(err) || Date.now() + pause > deadline) throw err;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        // The writes of this turn of the event loop (several streams read together) join in.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.length > this.maxBatch ? this.queue.splice(0, this.maxBatch) : this.queue;
    if (batch === this.queue) this.queue = [];
    try {
      const results = await this.writeWhenReachable(batch);
      batch.forEach((pending, i) => pending.resolve(results[i]!));
    } catch (err) {
      // Still away after the wait: every write of the batch is told so.
      if (isConnectionLost(err)) batch.forEach((pending) => pending.reject(err));
      // Else which write failed is not known: each is tried alone, and fails or succeeds alone.
      else {
        for (const pending of batch) {
          try {
            pending.resolve(await this.db.transaction().execute((trx) => this.write(trx, pending.item)));
          } catch (itsErr) {
            pending.reject(itsErr);
          }
        }
      }
    }
    if (this.queue.length) setImmediate(() => void this.flush());
    else this.busy = false;
  }
}

/**
 * `write` made group-committed: called with the database, it joins that database's next
 * batch; called inside a transaction, it writes there at once (a batch would wait for the
 * connection that transaction holds).
 */
export function grouped<DB, T, R>(write: (trx: Transaction<DB>, item: T) => Promise<R>, maxBatch?: number): (db: Kysely<DB>, item: T) => Promise<R> {
  const writers = new WeakMap<Kysely<DB>, GroupCommit<DB, T, R>>();
  return (db, item) => {
    if (db.isTransaction) return write(db as Transaction<DB>, item);
    let writer = writers.get(db);
    if (!writer) writers.set(db, (writer = new GroupCommit(db, write, maxBatch)));
    return writer.submit(item);
  };
}
