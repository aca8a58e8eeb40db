// The SQLite dialect with a first-come, first-served lock on its one connection.
// Why: Kysely serializes a single-connection dialect with a mutex whose waiters all await one
// promise; each release wakes every waiter, one wins and the rest wait again. With 300 chat
// turns in flight that is 300 wake-ups per query, and a turn's database work cost twice its
// sequential CPU (230 µs against 120, benchmark B5). Here each waiter has its own turn in a
// queue and a release wakes only the next one. Kysely's own mutex is switched off by declaring
// the connection shareable to it: this driver does the serializing instead.
import { SqliteAdapter, SqliteDialect, type DatabaseConnection, type DialectAdapter, type Driver, type TransactionSettings } from 'kysely';

class FifoLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private head = 0;

  acquire(): Promise<void> | void {
    if (!this.held) {
      this.held = true;
      return;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined as never;
      // Compact now and then rather than shift() on every release.
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.held = false;
  }
}

class SharedAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
  // SQLite rolls back CREATE and ALTER like any change; Kysely's adapter says it cannot, and its
  // migrator then ran the migrations outside a transaction, so one that failed left half of itself.
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class FairDriver implements Driver {
  private readonly lock = new FifoLock();
  private readonly inner: Driver;
  // Savepoints (nested transactions) as the SQLite driver makes them.
  readonly savepoint: Driver['savepoint'];
  readonly rollbackToSavepoint: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint: Driver['releaseSavepoint'];
  constructor(inner: Driver) {
    this.inner = inner;
    this.savepoint = inner.savepoint?.bind(inner);
    this.rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner);
    this.releaseSavepoint = inner.releaseSavepoint?.bind(inner);
  }
  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire();
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection(connection);
    this.lock.release();
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class FairSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new SharedAdapter();
  }
  override createDriver(): Driver {
    return new FairDriver(super.createDriver());
  }
}
