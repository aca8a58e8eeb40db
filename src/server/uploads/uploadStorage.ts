// New rows of the uploads table (a presigned upload waiting for its PUT, or a picture an image
// model made), and the URL every upload is served at.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/index.ts';
import type { Owner } from '../turn/owner.ts';

/** `<origin>/api/file/<id>/<name>`: the object URL of an upload. */
export { objectUrl } from '../../core/uploads.ts';

/** The size of the parts an upload's bytes are kept in (dbSchema.ts says why). */
export const PART_BYTES = 256 * 1024;

/** Writes an upload's bytes as its parts (inside the caller's transaction). */
export async function writeParts(db: Kysely<Database>, id: string, data: Uint8Array): Promise<void> {
  for (let seq = 0, at = 0; at < data.byteLength; seq++, at += PART_BYTES) {
    await db.insertInto('upload_parts').values({ upload_id: id, seq, data: data.subarray(at, at + PART_BYTES) }).execute();
  }
}

/** A ready upload: its name, type and bytes; undefined when there is none (or not yet). */
export async function readUpload(db: Kysely<Database>, id: string): Promise<{ name: string; contentType: string; data: Uint8Array<ArrayBuffer> } | undefined> {
  const row = await db.selectFrom('uploads').select(['name', 'content_type', 'size']).where('id', '=', id).where('ready', '=', 1).executeTakeFirst();
  if (!row) return undefined;
  const parts = await db.selectFrom('upload_parts').select('data').where('upload_id', '=', id).orderBy('seq').execute();
  const data = new Uint8Array(Number(row.size));
  let at = 0;
  for (const part of parts) {
    data.set(part.data, at);
    at += part.data.byteLength;
  }
  return { name: row.name, contentType: row.content_type, data };
}

/**
 * A new upload owned by `owner`, under a random UUID (its id): waiting for its presigned PUT
 * (`data` null), or ready with its bytes.
 */
export async function insertUpload(
  db: Kysely<Database>,
  owner: Owner,
  file: { name: string; contentType: string; putType?: string; data: Uint8Array | null; expiresAt?: number },
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('uploads')
      .values({
        id,
        user_id: owner.user?.id ?? null,
        device_id: owner.user ? null : owner.deviceId,
        address: owner.user ? null : (owner.address ?? null),
        name: file.name,
        content_type: file.contentType,
        put_type: file.putType ?? file.contentType,
        size: file.data?.byteLength ?? 0,
        ready: file.data ? 1 : 0,
        created_at: now,
        expires_at: file.expiresAt ?? now,
      })
      .execute();
    if (file.data) await writeParts(trx, id, file.data);
  });
  return id;
}
