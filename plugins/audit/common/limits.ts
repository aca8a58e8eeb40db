// What the audit trail keeps and shows, and the filters of `:audit` and GET /api/audit.
/** Rows one read gives at most (newest first), and by default. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;
/** A kept value's JSON (before, after) beyond this is cut to a note: a caller's mistake must not fill the table. */
export const AUDIT_VALUE_MAX = 4_000;
/** A short column's size (varchar(255) on PostgreSQL and MySQL): targets, actors, addresses, kinds, a kept string. */
export const AUDIT_TEXT_MAX = 255;
/** Words of `:audit` and query parameters of GET /api/audit. */
export const AUDIT_FILTERS = ['user', 'kind', 'since', 'until', 'limit'] as const;

/** One row as root reads it. */
export interface AuditRow {
  id: number;
  at: number;
  kind: string;
  target: string | null;
  actor: string | null;
  address: string | null;
  before: unknown;
  after: unknown;
}

/** The filters as the route takes them: times in ms since the epoch. */
export interface AuditQuery {
  user?: string;
  kind?: string;
  since?: number;
  until?: number;
  limit?: number;
}
