// The audit trail's shapes (issue 41): what a plugin or the core says it changed
// (ctx.audit.record), and what listeners get (src/server/audit.ts adds who, from where, when).
import type { Context } from 'hono';
import type { AppEnv } from './serverPlugin.ts';

/** A change worth an audit row: its kind ('user.role', 'key.create'...), on what, before and after. */
export interface AuditEntry {
  kind: string;
  /** What was acted on, as a person reads it: 'user:alice', 'store:docs', 'key:editor'. */
  target?: string;
  before?: unknown;
  after?: unknown;
  /** Who did it, when not the request's user (a webhook, the server itself: null). */
  actorId?: number | null;
  actor?: string | null;
}
/** An entry as listeners get it: who, from where, when. */
export interface AuditRecord {
  kind: string;
  target: string | null;
  before: unknown;
  after: unknown;
  actorId: number | null;
  actor: string | null;
  address: string | null;
  at: number;
}
export type AuditListener = (record: AuditRecord) => void | Promise<void>;
export interface AuditApi {
  /** `c` gives the actor and the address; null for the server's own changes. */
  record(c: Context<AppEnv> | null, entry: AuditEntry): void;
  listen(listener: AuditListener): void;
}
