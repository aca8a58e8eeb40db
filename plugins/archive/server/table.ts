// The archive plugin's tables: which source conversations each user imported, and into which
// session, so that importing the same archive again adds nothing; and which upload holds each
// picture's bytes (by content hash), so that a picture shared by conversations is stored once.
import type { Generated, Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface ArchiveSourcesTable {
  id: Generated<number>;
  user_id: number;
  /** 'shellchat', 'chatgpt' or 'claude'. */
  source: string;
  /** The source's id of the conversation (ChatGPT's conversation id, Claude's uuid, shellchat's root session). */
  source_id: string;
  /** The first session it became. */
  session_id: number;
  created_at: number;
}

export interface ArchivePicturesTable {
  id: Generated<number>;
  user_id: number;
  /** The picture's SHA-256, hex. */
  hash: string;
  /** The upload holding it (gone if its owner deleted it: then looked up in vain and stored anew). */
  upload_id: string;
}

export type ArchiveDb = Kysely<Database & { archive_sources: ArchiveSourcesTable; archive_pictures: ArchivePicturesTable }>;

export const sourcesMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('archive_sources')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', c.name, (col) => col.notNull())
      .addColumn('source_id', c.name, (col) => col.notNull())
      .addColumn('session_id', c.bigint, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('archive_sources_once').on('archive_sources').columns(['user_id', 'source', 'source_id']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('archive_sources').ifExists().execute();
  },
});

export const picturesMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('archive_pictures')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('hash', c.name, (col) => col.notNull())
      .addColumn('upload_id', c.name, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('archive_pictures_hash').on('archive_pictures').columns(['user_id', 'hash']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('archive_pictures').ifExists().execute();
  },
});
