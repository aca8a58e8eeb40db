// Whether a database error means the database cannot be reached right now (stopped, restarting,
// the connection cut), as opposed to a query it refused: the one kind worth waiting out.
const CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND',
  // PostgreSQL: shutting down, starting up, connection failures (SQLSTATE classes 57P and 08).
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
  // MySQL/MariaDB (mysql2).
  'PROTOCOL_CONNECTION_LOST', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR', 'ECONNABORTED',
]);
// pg reports a socket closed under it with these words and no code.
const WORDS = /Connection terminated|connection error|Client was closed|not queryable/i;

export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[]; cause?: unknown } | undefined;
  if (!e) return false;
  if (typeof e.code === 'string' && CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && WORDS.test(e.message)) return true;
  // Several attempts (IPv4 and IPv6) in one AggregateError, or a wrapped cause.
  if (Array.isArray(e.errors) && e.errors.some(isConnectionLost)) return true;
  return e.cause !== undefined && e.cause !== err && isConnectionLost(e.cause);
}
