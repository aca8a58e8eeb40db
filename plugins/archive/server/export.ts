// `:session export`: the caller's own conversations, streamed as they are read (a conversation
// at a time: its root session, its branches, their logs), as shellchat's JSON or as Markdown.
// A conversation is a root session (one without a parent of the caller's) and every session
// of the caller that branched from it, at any depth.
import type { Kysely } from 'kysely';
import { previewLine, type Database, type UserRow } from '../../../src/core/index.ts';
import { conversationMarkdown, EXPORT_FORMAT, EXPORT_VERSION, type ExportedConversation, type ExportedLog, type ExportedSession } from '../common/format.ts';

/** Rows read at a time: memory holds one conversation and one page. */
const PAGE = 500;

function list(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The caller's session that roots the conversation `id` is in (its topmost own ancestor). */
export async function rootOf(db: Kysely<Database>, user: UserRow, id: number): Promise<number | undefined> {
  let row = await db.selectFrom('sessions').select(['id', 'parent_id']).where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
  if (!row) return undefined;
  const seen = new Set<number>();
  while (row.parent_id !== null && !seen.has(Number(row.id))) {
    seen.add(Number(row.id));
    const parent = await db.selectFrom('sessions').select(['id', 'parent_id']).where('id', '=', Number(row.parent_id)).where('user_id', '=', user.id).executeTakeFirst();
    if (!parent) break;
    row = parent;
  }
  return Number(row.id);
}

async function logsOf(db: Kysely<Database>, session: number): Promise<ExportedLog[]> {
  const logs: ExportedLog[] = [];
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('logs')
      .select(['time', 'model', 'input', 'output', 'images', 'tools', 'input_tokens', 'output_tokens'])
      .where('session', '=', session)
      .where('time', '>', after)
      .orderBy('time')
      .limit(PAGE)
      .execute();
    for (const r of rows)
      logs.push({
        time: Number(r.time),
        model: r.model,
        input: r.input,
        output: r.output,
        images: list(r.images).filter((u): u is string => typeof u === 'string'),
        tools: list(r.tools),
        input_tokens: Number(r.input_tokens),
        output_tokens: Number(r.output_tokens),
      });
    if (rows.length < PAGE) return logs;
    after = Number(rows[rows.length - 1]!.time);
  }
}

/** The conversation rooted at `root`: its sessions breadth first (a parent before its branches). */
export async function conversation(db: Kysely<Database>, user: UserRow, root: number): Promise<ExportedConversation | undefined> {
  const sessions: ExportedSession[] = [];
  const seen = new Set<number>();
  let level = [root];
  for (let depth = 0; level.length; depth++) {
    const next: number[] = [];
    for (let i = 0; i < level.length; i += PAGE) {
      const chunk = level.slice(i, i + PAGE);
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'parent_id', 'branch_time', 'created_at', 'updated_at'])
        .where('user_id', '=', user.id)
        .where((eb) => (depth === 0 ? eb('id', 'in', chunk) : eb('parent_id', 'in', chunk)))
        .orderBy('id')
        .execute();
      for (const r of rows) {
        const id = Number(r.id);
        if (seen.has(id)) continue;
        seen.add(id);
        next.push(id);
        sessions.push({
          id,
          parent: depth === 0 || r.parent_id === null ? null : Number(r.parent_id),
          branch_time: depth === 0 || r.branch_time === null ? null : Number(r.branch_time),
          created_at: Number(r.created_at),
          updated_at: Number(r.updated_at),
          logs: await logsOf(db, id),
        });
      }
    }
    level = next;
  }
  const first = sessions.flatMap((s) => s.logs)[0];
  if (!first) return undefined;
  return { id: root, title: previewLine(first.input || first.output, 80), sessions };
}

/** The caller's root sessions, oldest first, a page at a time. */
async function* roots(db: Kysely<Database>, user: UserRow): AsyncGenerator<number> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('sessions as s')
      .select('s.id')
      .where('s.user_id', '=', user.id)
      .where('s.id', '>', after)
      .where((eb) =>
        eb.or([
          eb('s.parent_id', 'is', null),
          eb.not(eb.exists(eb.selectFrom('sessions as p').select('p.id').whereRef('p.id', '=', 's.parent_id').where('p.user_id', '=', user.id))),
        ]),
      )
      .orderBy('s.id')
      .limit(PAGE)
      .execute();
    for (const r of rows) yield Number(r.id);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}

/** The export's text, piece by piece: JSON (shellchat's format) or Markdown. */
export async function* exportText(db: Kysely<Database>, user: UserRow, options: { root?: number; format: 'json' | 'md'; now: number }): AsyncGenerator<string> {
  const ids = options.root !== undefined ? (async function* () { yield options.root!; })() : roots(db, user);
  if (options.format === 'json') yield `{"format":"${EXPORT_FORMAT}","version":${EXPORT_VERSION},"exported_at":${options.now},"user":${JSON.stringify(user.username)},"conversations":[`;
  let first = true;
  for await (const root of ids) {
    const c = await conversation(db, user, root);
    if (!c) continue;
    if (options.format === 'json') {
      yield (first ? '\n' : ',\n') + JSON.stringify(c);
    } else yield (first ? '' : '\n---\n\n') + conversationMarkdown(c);
    first = false;
  }
  if (options.format === 'json') yield '\n]}\n';
}
