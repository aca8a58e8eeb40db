// The audit hook (issue 41): a plugin or the core says what it changed; listeners (the audit
// plugin) keep it. Without a listener a record goes nowhere, so callers never check for one.
import type { Context } from 'hono';
import type { AppEnv, AuditApi, AuditListener, AuditRecord } from '../core/index.ts';
import type { Logger } from './log.ts';

export function createAudit(log: Logger, now: () => number, address: (c: Context<AppEnv>) => string): AuditApi {
  const listeners: AuditListener[] = [];
  return {
    listen: (listener) => void listeners.push(listener),
    record(c, entry) {
      const user = c?.get('user') ?? null;
      const record: AuditRecord = {
        kind: entry.kind,
        target: entry.target ?? null,
        before: entry.before ?? null,
        after: entry.after ?? null,
        actorId: entry.actorId !== undefined ? entry.actorId : (user?.id ?? null),
        actor: entry.actor !== undefined ? entry.actor : (user?.username ?? null),
        address: c ? address(c) : null,
        at: now(),
      };
      // A listener's failure is the operator's to see, never the request's.
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener(record))
          .catch((error: unknown) => log.error({ err: error, kind: record.kind }, 'audit listener failed'));
      }
    },
  };
}
