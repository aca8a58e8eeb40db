// An importer's pictures by their bytes: the same picture (by SHA-256), whichever conversation,
// import or file name it comes under, is one upload of theirs, stored and counted against the
// quota once, and linked from every log that shows it.
import type { Message, ServerPluginContext, StoredUpload } from '../../../../src/core/index.ts';
import { objectUrl } from '../../../../src/core/uploads.ts';
import type { ArchiveDb } from '../table.ts';

export interface PictureStore {
  /** The upload holding these bytes, stored now (`created`) or already there; or why not. */
  store(file: { name: string; data: Uint8Array }): Promise<(StoredUpload & { created: boolean }) | { refused: Message }>;
  /** Uploads removed again (their conversation was not written): a picture of theirs is stored anew. */
  forget(ids: string[]): Promise<void>;
}

export function pictureStore(db: ArchiveDb, uploads: ServerPluginContext['uploads'], userId: number, origin: string): PictureStore {
  // This import's, written or not yet: its batches' pictures before their rows are looked up.
  const known = new Map<string, StoredUpload>();
  return {
    async store(file) {
      // Web Crypto: plugins use no node: modules.
      const hash = Buffer.from(await crypto.subtle.digest('SHA-256', file.data as Uint8Array<ArrayBuffer>)).toString('hex');
      const mine = known.get(hash);
      if (mine) return { ...mine, created: false };
      const there = await db
        .selectFrom('archive_pictures')
        .innerJoin('uploads', 'uploads.id', 'archive_pictures.upload_id')
        .select(['uploads.id', 'uploads.name'])
        .where('archive_pictures.user_id', '=', userId)
        .where('archive_pictures.hash', '=', hash)
        .where('uploads.user_id', '=', userId)
        .where('uploads.ready', '=', 1)
        .executeTakeFirst();
      if (there) {
        const found = { id: there.id, url: objectUrl(origin, there.id, there.name) };
        known.set(hash, found);
        return { ...found, created: false };
      }
      const done = await uploads.store(userId, file, origin);
      if ('refused' in done) return done;
      // A row left by an upload since deleted names nothing now: replaced.
      await db.deleteFrom('archive_pictures').where('user_id', '=', userId).where('hash', '=', hash).execute();
      await db.insertInto('archive_pictures').values({ user_id: userId, hash, upload_id: done.id }).execute();
      known.set(hash, done);
      return { ...done, created: true };
    },
    async forget(ids) {
      if (!ids.length) return;
      await uploads.remove(userId, ids);
      await db.deleteFrom('archive_pictures').where('user_id', '=', userId).where('upload_id', 'in', ids).execute();
      for (const [hash, upload] of known) if (ids.includes(upload.id)) known.delete(hash);
    },
  };
}
