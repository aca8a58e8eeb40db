// Sessions and their branches, and memory (spec part 4): a session is readable by its owner
// and root, or by anyone once shared; sending from an older log, or into someone else's
// shared session, starts a sub-session whose memory follows the parent chain.
import { MessageError, type Message } from '../../core/messages.ts';
import type { Kysely, Selectable } from 'kysely';
import { SESSION_ID_MAX, SESSION_ID_MIN, type Database, type LogsTable, type SessionsTable } from '../../core/index.ts';
import { grouped } from '../db/groupCommit.ts';
import { precompiled } from '../db/precompiled.ts';
import type { Owner } from './owner.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export type SessionRow = Selectable<SessionsTable>;
export type LogRow = Selectable<LogsTable>;

export class SessionError extends MessageError {
  readonly status: 400 | 403 | 404;
  constructor(message: string | Message, status: 400 | 403 | 404) {
    super(message);
    this.status = status;
  }
}

export function validSessionId(id: number): boolean {
  return Number.isInteger(id) && id > SESSION_ID_MIN && id < SESSION_ID_MAX;
}

export function owns(session: SessionRow, owner: Owner): boolean {
  return owner.user ? session.user_id === owner.user.id : session.user_id === null && session.device_id === owner.deviceId;
}

export function canRead(session: SessionRow, owner: Owner): boolean {
  return owns(session, owner) || owner.root || session.shared === 1;
}

let lastIssued = 0;
/** A new session id: now, or just after the last one issued, and never one that exists. */
async function newSessionId(db: Kysely<Database>): Promise<number> {
  let id = Math.max(Date.now(), lastIssued + 1);
  while (await db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()) id++;
  lastIssued = id;
  return id;
}

// The queries of every turn, compiled once (see precompiled.ts).
const sessionById = precompiled((db, a: { id: number }) => db.selectFrom('sessions').selectAll().where('id', '=', a.id));
/** The time of a session's latest log (null without logs); persist.ts reads it in its transaction. */
export const maxLogTime = precompiled((db, a: { session: number }) =>
  db.selectFrom('logs').select((eb) => eb.fn.max('time').as('time')).where('session', '=', a.session),
);
const insertSession = precompiled(
  (db, a: { id: number; parentId: number | null; branchTime: number | null; userId: number | null; deviceId: string | null; now: number }) =>
    db.insertInto('sessions').values({
      id: a.id,
      parent_id: a.parentId,
      branch_time: a.branchTime,
      user_id: a.userId,
      device_id: a.deviceId,
      shared: 0,
      created_at: a.now,
      updated_at: a.now,
    }),
);

export async function getSession(db: Kysely<Database>, id: number): Promise<SessionRow | undefined> {
  return (await sessionById(db, { id })).rows[0];
}

async function latestTime(db: Kysely<Database>, session: number): Promise<number | undefined> {
  const time = (await maxLogTime(db, { session })).rows[0]?.time;
  return time === null || time === undefined ? undefined : Number(time);
}

// Sessions begun together (hundreds of new chats at once) are created in one transaction.
const insertSessionGrouped = grouped(insertSession);

async function create(db: Kysely<Database>, id: number, owner: Owner, parent?: { id: number; at: number }): Promise<number> {
  await insertSessionGrouped(db, {
    id,
    parentId: parent?.id ?? null,
    branchTime: parent?.at ?? null,
    userId: owner.user?.id ?? null,
    deviceId: owner.user ? null : owner.deviceId,
    now: Date.now(),
  });
  return id;
}

/**
 * The session a new turn goes into. `viewing` is the time of the log the user is looking at:
 * older than the session's latest log means a branch from there.
 */
export async function sessionForTurn(db: Kysely<Database>, requested: number, viewing: number | undefined, owner: Owner): Promise<number> {
  if (!validSessionId(requested)) throw new SessionError(SERVER_MESSAGES.timeTraveler, 400);
  let session = await getSession(db, requested);
  if (!session) {
    try {
      return await create(db, requested, owner);
    } catch (err) {
      // Another request created it meanwhile (two turns sent at once into a new session): the
      // row that won decides, as if this turn had come a moment later.
      session = await getSession(db, requested);
      if (!session) throw err;
    }
  }
  // A session this owner may not read (another user's, after a login or logout in another
  // tab, or an id two browsers picked in the same millisecond): the turn begins a session of
  // its own, remembering nothing of that one, and the browser follows the id `done` names.
  if (!canRead(session, owner)) return create(db, await newSessionId(db), owner);
  const latest = await latestTime(db, requested);
  if (!owns(session, owner)) {
    return create(db, await newSessionId(db), owner, { id: session.id, at: Math.min(viewing ?? latest ?? session.id, latest ?? session.id) });
  }
  if (viewing !== undefined && latest !== undefined && viewing < latest) {
    return create(db, await newSessionId(db), owner, { id: session.id, at: viewing });
  }
  return requested;
}

/** The last `limit` logs before the turn, following the parent chain, oldest first. */
export async function memory(db: Kysely<Database>, sessionId: number, limit: number): Promise<LogRow[]> {
  const collected: LogRow[] = [];
  let current: number | null = sessionId;
  let upTo = Number.MAX_SAFE_INTEGER;
  const seen = new Set<number>();
  while (current !== null && collected.length < limit && !seen.has(current)) {
    seen.add(current);
    const rows: LogRow[] = await db
      .selectFrom('logs')
      .selectAll()
      .where('session', '=', current)
      .where('time', '<=', upTo)
      .orderBy('time', 'desc')
      .limit(limit - collected.length)
      .execute();
    collected.push(...rows);
    const session: SessionRow | undefined = await getSession(db, current);
    current = session?.parent_id ?? null;
    // A branch of a branch sees the grandparent only up to the earlier of the two branch points.
    upTo = Math.min(upTo, session?.branch_time ?? upTo);
  }
  // Each tool call of a turn counts as one more unit of memory, as the turn itself does.
  let units = 0;
  const kept: LogRow[] = [];
  for (const log of collected) {
    units += memoryUnits(log);
    if (units > limit && kept.length) break;
    kept.push(log);
  }
  return kept.reverse();
}

/** A turn is one unit of memory, plus one per tool call it made (spec part 4's logs). */
export function memoryUnits(log: Pick<LogRow, 'tools'>): number {
  try {
    const tools: unknown = JSON.parse(log.tools);
    return 1 + (Array.isArray(tools) ? tools.length : 0);
  } catch {
    return 1;
  }
}
