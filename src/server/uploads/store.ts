// New rows of the uploads table (a presigned upload waiting for its PUT, or a picture an image
// model made), and the URL every upload is served at.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/index.ts';
import type { Owner } from '../generation/owner.ts';

/** `<origin>/api/file/<id>/<name>`: the object URL of an upload. */
export const objectUrl = (origin: string, id: string, name: string) => `${origin}/api/file/${id}/${encodeURIComponent(name)}`;

/**
 * A new row of the uploads table, owned by `owner`, under a random UUID (its id): waiting for
 * its presigned PUT (`data` null), or ready with its bytes.
 */
export async function insertUpload(
  db: Kysely<Database>,
  owner: Owner,
  file: { name: string; contentType: string; putType?: string; data: Uint8Array | null; expiresAt?: number },
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto('uploads')
    .values({
      id,
      user_id: owner.user?.id ?? null,
      device_id: owner.user ? null : owner.deviceId,
      name: file.name,
      content_type: file.contentType,
      put_type: file.putType ?? file.contentType,
      size: file.data?.byteLength ?? 0,
      data: file.data,
      ready: file.data ? 1 : 0,
      created_at: now,
      expires_at: file.expiresAt ?? now,
    })
    .execute();
  return id;
}
