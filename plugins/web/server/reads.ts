// The pages a person read (`:web open`) or the model read (web_fetch), per owner: a user, or
// a visitor's browser. A page read by `:web open` waits (`pending`) for the owner's next
// question, which takes it as context when it carries the page's marker; `:web` lists the latest. Each owner keeps at most
// KEPT rows, each text at most WEB_PAGE_MAX_CHARS: what one person can store is bounded.
import type { ExpressionBuilder, Generated, Kysely, Transaction } from 'kysely';
import type { Database, MigrationFactory, SessionOwner } from '../../../src/core/index.ts';
import type { PageRead } from '../common/api.ts';
import { named } from '../common/marker.ts';

export interface WebReadsTable {
  id: Generated<number>;
  user_id: number | null;
  device_id: string | null;
  url: string;
  title: string;
  body: string;
  cut: string;
  pending: number;
  created_at: number;
}

export type WebDb = Kysely<Database & { web_reads: WebReadsTable }>;

const KEPT = 50;

export const readsMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('web_reads')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('device_id', c.name)
      .addColumn('url', c.text, (col) => col.notNull())
      .addColumn('title', c.text, (col) => col.notNull())
      .addColumn('body', c.text, (col) => col.notNull())
      .addColumn('cut', c.text, (col) => col.notNull())
      .addColumn('pending', 'integer', (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('web_reads_user').on('web_reads').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('web_reads_device').on('web_reads').columns(['device_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('web_reads').execute();
  },
});

const ownedBy = (owner: SessionOwner) => (eb: ExpressionBuilder<Database & { web_reads: WebReadsTable }, 'web_reads'>) =>
  owner.user ? eb('user_id', '=', owner.user.id) : eb.and([eb('user_id', 'is', null), eb('device_id', '=', owner.deviceId)]);

export function createReads(db: WebDb, now: () => number) {
  return {
    async add(owner: SessionOwner, page: { url: string; title: string; text: string; cut: string }, pending: boolean): Promise<void> {
      await db
        .insertInto('web_reads')
        .values({
          user_id: owner.user?.id ?? null,
          device_id: owner.user ? null : owner.deviceId,
          url: page.url,
          title: page.title,
          body: page.text,
          cut: page.cut,
          pending: pending ? 1 : 0,
          created_at: now(),
        })
        .execute();
      const old = await db.selectFrom('web_reads').select('id').where(ownedBy(owner)).orderBy('id', 'desc').offset(KEPT).limit(1000).execute();
      if (old.length) await db.deleteFrom('web_reads').where('id', 'in', old.map((r) => r.id)).execute();
    },
    /** At login: this browser's reads (pending ones too) become the user's (src/server/accounts/adopt.ts). */
    async adopt(trx: Transaction<Database>, deviceId: string, userId: number): Promise<void> {
      const own = trx as unknown as WebDb;
      await own.updateTable('web_reads').set({ user_id: userId, device_id: null }).where('user_id', 'is', null).where('device_id', '=', deviceId).execute();
    },
    /** The latest reads, newest first. */
    async list(owner: SessionOwner, limit: number): Promise<PageRead[]> {
      const rows = await db.selectFrom('web_reads').select(['url', 'title', 'body', 'cut', 'pending', 'created_at']).where(ownedBy(owner)).orderBy('id', 'desc').limit(limit).execute();
      return rows.map((r) => ({ url: r.url, title: r.title, chars: r.body.length, cut: r.cut, pending: Number(r.pending) === 1, created_at: Number(r.created_at) }));
    },
    /**
     * The owner's pages its question names by marker (marker.ts), latest read of each, in the
     * markers' order; none waits any longer, named or not (deleted markers leave theirs out).
     */
    async takeNamed(owner: SessionOwner, marked: readonly string[]): Promise<{ url: string; title: string; body: string; cut: string }[]> {
      const ids: number[] = [];
      if (marked.length) {
        const recent = await db.selectFrom('web_reads').select(['id', 'url']).where(ownedBy(owner)).orderBy('id', 'desc').limit(KEPT).execute();
        for (const url of marked) {
          const hit = recent.find((r) => named(r.url, [url]));
          if (hit && !ids.includes(hit.id)) ids.push(hit.id);
        }
      }
      await db.updateTable('web_reads').set({ pending: 0 }).where(ownedBy(owner)).where('pending', '=', 1).execute();
      if (!ids.length) return [];
      const rows = await db.selectFrom('web_reads').select(['id', 'url', 'title', 'body', 'cut']).where('id', 'in', ids).execute();
      return ids.flatMap((id) => rows.filter((r) => r.id === id));
    },
  };
}

export type Reads = ReturnType<typeof createReads>;
