// Rows of the uploads table that the server writes itself (a generated image), and the URL
// every upload is served at. Presigned uploads are written by routes.ts.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/index.ts';
import type { Owner } from '../generation/owner.ts';

/** `<origin>/api/file/<id>/<name>`: the object URL of an upload. */
export const objectUrl = (origin: string, id: string, name: string) => `${origin}/api/file/${id}/${encodeURIComponent(name)}`;

/** Stores a file the server made (already checked: it comes from a provider, not a person); its id. */
export async function storeFile(db: Kysely<Database>, owner: Owner, file: { name: string; contentType: string; data: Uint8Array }): Promise<string> {
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
      put_type: file.contentType,
      size: file.data.byteLength,
      data: file.data,
      ready: 1,
      created_at: now,
      expires_at: now,
    })
    .execute();
  return id;
}
