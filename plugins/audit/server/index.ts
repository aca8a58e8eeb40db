// The audit plugin's server: the listener that appends each ctx.audit record to audit_log, and
// root's read of it (GET /api/audit: filters by user, kind and time, newest first). There is no
// route that changes or deletes a row.
import { Hono } from 'hono';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { rankOf, ROLE_RANKS, type AppEnv, type ServerPluginContext, type ServerPluginModule, type UserRow } from '../../../src/core/index.ts';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, AUDIT_TEXT_MAX, type AuditRow } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { keptText, keptValue } from './redact.ts';
import { auditLogMigration, type AuditDb } from './table.ts';

export { MESSAGES };

const time = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const auditQuery = z.object({
  user: z.string().trim().min(1).max(AUDIT_TEXT_MAX).optional(),
  kind: z.string().trim().min(1).max(AUDIT_TEXT_MAX).optional(),
  since: time.optional(),
  until: time.optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).optional(),
});

const parsed = (json: string | null): unknown => {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
};

/** `user.*` matches every kind under `user.`; anything else matches exactly. LIKE's wildcards are escaped. */
const kindPrefix = (kind: string) => (kind.endsWith('.*') ? `${kind.slice(0, -1).replace(/[!%_]/g, (ch) => `!${ch}`)}%` : undefined);

export function auditRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, answer, refuse } = ctx;
  const db = ctx.db as AuditDb;
  return new Hono<AppEnv>().get('/api/audit', requireUser, validate('query', auditQuery), async (c) => {
    const me = c.get('user') as UserRow;
    if (rankOf(me.role) < ROLE_RANKS.root_user) return refuse(c, 403, MESSAGES.rootOnly);
    const { user, kind, since, until, limit } = c.req.valid('query');
    let query = db.selectFrom('audit_log').selectAll();
    // A user's rows: what they did, and what was done to their account.
    if (user) query = query.where((eb) => eb.or([eb('actor', '=', user), eb('target', '=', `user:${user}`)]));
    if (kind) {
      const prefix = kindPrefix(kind);
      query = prefix ? query.where(sql<SqlBool>`kind like ${prefix} escape '!'`) : query.where('kind', '=', kind);
    }
    if (since !== undefined) query = query.where('at', '>=', since);
    if (until !== undefined) query = query.where('at', '<=', until);
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit ?? AUDIT_PAGE_DEFAULT).execute();
    const entries: AuditRow[] = rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      kind: r.kind,
      target: r.target,
      actor: r.actor,
      address: r.address,
      before: parsed(r.before_value),
      after: parsed(r.after_value),
    }));
    return answer(c, { entries });
  });
}

export type AuditRoutes = ReturnType<typeof auditRoutes>;

const plugin: ServerPluginModule = {
  migrations: { '0001_audit_log': auditLogMigration },
  routes: auditRoutes,
  register(ctx) {
    const db = ctx.db as AuditDb;
    ctx.audit.listen(async (record) => {
      await db
        .insertInto('audit_log')
        .values({
          at: record.at,
          kind: keptText(record.kind)!,
          target: keptText(record.target),
          actor_id: record.actorId,
          actor: keptText(record.actor),
          address: keptText(record.address),
          before_value: keptValue(record.before),
          after_value: keptValue(record.after),
        })
        .execute();
    });
  },
};

export default plugin;
