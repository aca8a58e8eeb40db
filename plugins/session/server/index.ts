// The session and log API of spec part 7, with the privacy rules the public app lacked: a
// session is read by its owner (a user, or an anonymous browser through its device cookie)
// and root, or by anyone once its owner shared it; lists and session navigation need a login
// and show the caller's own sessions only (root: everybody's). Searching logs: plugins/search.
import { Hono, type Context } from 'hono';
import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import {
  SESSION_ID_MAX,
  SESSION_ID_MIN,
  previewLine,
  type AppEnv,
  type Database,
  type LogRow,
  type Message,
  type ServerPluginContext,
  type ServerPluginModule,
  type SessionOwner,
  type SessionRow,
  type UserRow,
} from '../../../src/core/index.ts';
import {
  LOG_LIST_MAX,
  SESSION_LIST_MAX,
  SESSION_LOGS_MAX,
  SUMMARY_INPUT_LENGTH,
  type PublicLog,
  type SessionDetail,
  type SessionSummary,
} from '../common/api.ts';
import { MESSAGES } from '../common/messages.ts';

type C = Context<AppEnv>;

export { MESSAGES };

/** How far up a chain of branches log navigation follows parents. */
const CHAIN_MAX = 64;

const sessionQuery = z.object({ session: z.coerce.number().int().nonnegative() });
const logQuery = z.object({ session: z.coerce.number().int().nonnegative(), time: z.coerce.number().int().nonnegative() });
const shareBody = z.object({ session: z.number().int().positive() });

function images(row: Pick<LogRow, 'images'>): string[] {
  try {
    const value: unknown = JSON.parse(row.images);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function publicLog(row: Pick<LogRow, 'session' | 'time' | 'model' | 'input' | 'output' | 'images'>): PublicLog {
  return { session: Number(row.session), time: Number(row.time), model: row.model, input: row.input, output: row.output, images: images(row) };
}

/** What the routes read of sessions and logs, as their readers may see them. */
function sessionBook(ctx: ServerPluginContext) {
  const { db, sessions } = ctx;
  const logColumns = ['logs.session', 'logs.time', 'logs.model', 'logs.input', 'logs.output', 'logs.images'] as const;
  const hasLogs = (eb: ExpressionBuilder<Database, 'sessions'>) =>
    eb.exists(eb.selectFrom('logs').select('logs.id').whereRef('logs.session', '=', 'sessions.id'));

  /** The session with its first logs, as its reader may see it. */
  async function detail(session: SessionRow, owner: SessionOwner): Promise<SessionDetail> {
    const [logs, stats] = await Promise.all([
      db.selectFrom('logs').select(logColumns).where('logs.session', '=', session.id).orderBy('logs.time', 'asc').limit(SESSION_LOGS_MAX).execute(),
      db
        .selectFrom('logs')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('logs.time').as('time')])
        .where('logs.session', '=', session.id)
        .executeTakeFirst(),
    ]);
    let creator: string | undefined;
    if (sessions.owns(session, owner) || owner.root) {
      creator = session.user_id === null ? '' : ((await db.selectFrom('users').select('username').where('id', '=', session.user_id).executeTakeFirst())?.username ?? '');
    }
    const latest = stats?.time;
    return {
      id: Number(session.id),
      parent: session.parent_id === null ? null : Number(session.parent_id),
      branch_time: session.branch_time === null ? null : Number(session.branch_time),
      created_at: Number(session.created_at),
      updated_at: Number(session.updated_at),
      shared: Number(session.shared) === 1,
      ...(creator !== undefined ? { creator } : {}),
      length: Number(stats?.n ?? 0),
      time: latest === null || latest === undefined ? null : Number(latest),
      logs: logs.map(publicLog),
    };
  }

  /** Newest sessions that have logs: everybody's, or one user's. */
  async function summaries(userId?: number): Promise<SessionSummary[]> {
    let query = db
      .selectFrom('sessions')
      .leftJoin('users', 'users.id', 'sessions.user_id')
      .select((eb) => [
        'sessions.id',
        'sessions.created_at',
        'users.username',
        eb.selectFrom('logs').select('logs.input').whereRef('logs.session', '=', 'sessions.id').orderBy('logs.time', 'asc').limit(1).as('input'),
        eb.selectFrom('logs').select((sub) => sub.fn.countAll().as('n')).whereRef('logs.session', '=', 'sessions.id').as('length'),
      ])
      .where(hasLogs);
    if (userId !== undefined) query = query.where('sessions.user_id', '=', userId);
    const rows = await query.orderBy('sessions.id', 'desc').limit(SESSION_LIST_MAX).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      user: r.username ?? '',
      input: previewLine(String(r.input ?? ''), SUMMARY_INPUT_LENGTH),
      length: Number(r.length ?? 0),
      created_at: Number(r.created_at),
    }));
  }

  /** The session of a query, when the caller may read it. */
  async function readable(c: C, id: number): Promise<{ session: SessionRow; owner: SessionOwner } | undefined> {
    const owner = sessions.owner(c);
    const session = await sessions.get(id);
    return session && sessions.canRead(session, owner) ? { session, owner } : undefined;
  }

  /**
   * The session and its ancestors, each with the newest log time it contributes: a branch
   * sees its parent's logs up to the branch point (and the grandparent's up to the parent's).
   */
  async function chain(session: SessionRow): Promise<{ id: number; upTo: number }[]> {
    const out = [{ id: Number(session.id), upTo: Number.MAX_SAFE_INTEGER }];
    const seen = new Set([Number(session.id)]);
    let current = session;
    let upTo = Number.MAX_SAFE_INTEGER;
    while (current.parent_id !== null && out.length < CHAIN_MAX) {
      const parentId = Number(current.parent_id);
      if (seen.has(parentId)) break;
      const parent = await sessions.get(parentId);
      if (!parent) break;
      upTo = Math.min(upTo, current.branch_time === null ? upTo : Number(current.branch_time));
      seen.add(parentId);
      out.push({ id: parentId, upTo });
      current = parent;
    }
    return out;
  }

  /** The nearest log before or after `time` on the session's timeline (its own and inherited logs). */
  async function adjacentLog(session: SessionRow, time: number, direction: 'prev' | 'next'): Promise<PublicLog | undefined> {
    let best: PublicLog | undefined;
    for (const segment of await chain(session)) {
      const row = await db
        .selectFrom('logs')
        .select(logColumns)
        .where('logs.session', '=', segment.id)
        .where('logs.time', direction === 'prev' ? '<' : '>', time)
        .where('logs.time', '<=', segment.upTo)
        .orderBy('logs.time', direction === 'prev' ? 'desc' : 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!row) continue;
      const log = publicLog(row);
      if (!best || (direction === 'prev' ? log.time > best.time : log.time < best.time)) best = log;
    }
    return best;
  }

  /** The nearest session with logs before or after `from`: root walks everybody's, everybody else their own. */
  async function adjacentSession(owner: SessionOwner, user: UserRow, from: number, direction: 'prev' | 'next'): Promise<SessionRow | undefined> {
    let query = db
      .selectFrom('sessions')
      .selectAll()
      .where('sessions.id', direction === 'prev' ? '<' : '>', from)
      .where(hasLogs);
    if (!owner.root) query = query.where('sessions.user_id', '=', user.id);
    return query.orderBy('sessions.id', direction === 'prev' ? 'desc' : 'asc').limit(1).executeTakeFirst();
  }

  return { detail, summaries, readable, adjacentLog, adjacentSession };
}

/** The session and log API's routes; the browser's client is typed from them (SessionRoutes). */
export function sessionRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, sessions, policy, answer, refuse } = ctx;
  const book = sessionBook(ctx);
  const me = (c: C) => c.get('user') as UserRow;

  /** The session before or after the query's, attached as its reader sees it. */
  const stepSession = async (c: C, from: number, direction: 'prev' | 'next') => {
    const owner = sessions.owner(c);
    const found = await book.adjacentSession(owner, me(c), from, direction);
    return found ? { detail: await book.detail(found, owner) } : undefined;
  };

  /** The log before or after `time` on a readable session's timeline; why not otherwise. */
  const stepLog = async (c: C, id: number, time: number, direction: 'prev' | 'next'): Promise<{ log: PublicLog } | { problem: Message }> => {
    const found = await book.readable(c, id);
    if (!found) return { problem: MESSAGES.notFound };
    const log = await book.adjacentLog(found.session, time, direction);
    return log ? { log } : { problem: MESSAGES.noLog };
  };

  // Fixed paths first: `/api/session/:id` would otherwise take them.
  return new Hono<AppEnv>()
    .get('/api/session/list', requireUser, async (c) => {
      if (!policy.can(me(c), 'session.list.all')) return refuse(c, 403, MESSAGES.listRoot);
      return answer(c, { sessions: await book.summaries() });
    })
    .get('/api/session/list/:user', requireUser, async (c) => {
      const name = c.req.param('user').trim().toLowerCase();
      const user = me(c);
      if (name === user.username) return answer(c, { sessions: await book.summaries(user.id) });
      if (!policy.can(user, 'session.list.all')) return refuse(c, 403, MESSAGES.listOwn);
      const target = await ctx.accounts.byUsername(name);
      if (!target) return refuse(c, 404, MESSAGES.userNotFound);
      return answer(c, { sessions: await book.summaries(target.id) });
    })
    .get('/api/session/prev', requireUser, validate('query', sessionQuery), async (c) => {
      const found = await stepSession(c, c.req.valid('query').session, 'prev');
      return found ? answer(c, found.detail) : refuse(c, 404, MESSAGES.noPrevious);
    })
    .get('/api/session/next', requireUser, validate('query', sessionQuery), async (c) => {
      const found = await stepSession(c, c.req.valid('query').session, 'next');
      return found ? answer(c, found.detail) : refuse(c, 404, MESSAGES.noNext);
    })
    .post('/api/session/share', validate('json', shareBody), async (c) => {
      const { session: id } = c.req.valid('json');
      const found = await book.readable(c, id);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      if (!sessions.owns(found.session, found.owner)) return refuse(c, 403, MESSAGES.shareOwnOnly);
      if (Number(found.session.shared) !== 1) await ctx.db.updateTable('sessions').set({ shared: 1, updated_at: Date.now() }).where('id', '=', found.session.id).execute();
      return answer(c, { session: Number(found.session.id), shared: true }, MESSAGES.shared);
    })
    .get('/api/session/:id', async (c) => {
      const raw = c.req.param('id');
      if (!/^\d+$/.test(raw)) return refuse(c, 400, MESSAGES.notNumber);
      const id = Number(raw);
      if (!(id > SESSION_ID_MIN && id < SESSION_ID_MAX)) return refuse(c, 400, MESSAGES.timeTraveler);
      const found = await book.readable(c, id);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      return answer(c, await book.detail(found.session, found.owner));
    })
    .get('/api/log/prev', validate('query', logQuery), async (c) => {
      const { session: id, time } = c.req.valid('query');
      const step = await stepLog(c, id, time, 'prev');
      return 'log' in step ? answer(c, { log: step.log }) : refuse(c, 404, step.problem);
    })
    .get('/api/log/next', validate('query', logQuery), async (c) => {
      const { session: id, time } = c.req.valid('query');
      const step = await stepLog(c, id, time, 'next');
      return 'log' in step ? answer(c, { log: step.log }) : refuse(c, 404, step.problem);
    })
    .get('/api/log/list', validate('query', sessionQuery), async (c) => {
      const { session: id } = c.req.valid('query');
      const found = await book.readable(c, id);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      const logs = await sessions.memory(Number(found.session.id), LOG_LIST_MAX);
      return answer(c, { logs: logs.map(publicLog) });
    });
}

export type SessionRoutes = ReturnType<typeof sessionRoutes>;

const module: ServerPluginModule = { routes: sessionRoutes };
export default module;
