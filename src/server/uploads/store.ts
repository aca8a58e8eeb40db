// A file the server itself stores as someone's upload (not sent through a presigned PUT): the
// same checks as the PUT (type by extension, size, bytes that match, an image a browser can
// decode) and the same quota, claimed under the owner's locks before the bytes are written.
import type { Kysely } from 'kysely';
import { UPLOAD_MAX_BYTES } from '../../core/constants.ts';
import type { Database, StoredUpload, UploadStoreApi } from '../../core/index.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { UPLOAD_CONTENT_TYPES, uploadExtension } from '../../core/uploads.ts';
import { withKeyLocks } from '../db/keyLock.ts';
import { quotaLockKeys, quotaRefusal, type Holder, type UploadQuotas } from './quota.ts';
import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE, imageTooLarge, mismatch } from './sniff.ts';
import { objectUrl, writeParts } from './uploadStorage.ts';
import { randomUUID } from 'node:crypto';

/** Why these bytes cannot be an upload of this name, or undefined. */
async function refusal(name: string, data: Uint8Array): Promise<Message | undefined> {
  const ext = uploadExtension(name);
  if (!ext) return SERVER_MESSAGES.uploadInvalidType;
  if (data.byteLength > UPLOAD_MAX_BYTES) return SERVER_MESSAGES.uploadTooLarge;
  if (!data.byteLength) return SERVER_MESSAGES.uploadEmpty;
  const wrong = await mismatch(ext, data);
  if (wrong) return SERVER_MESSAGES.uploadMismatch(wrong);
  const huge = ext === 'png' || ext === 'jpg' || ext === 'jpeg' ? imageTooLarge(ext, data) : undefined;
  if (huge) return SERVER_MESSAGES.imageTooLarge(huge.width, huge.height, IMAGE_MAX_SIDE, IMAGE_MAX_MEGAPIXELS);
  return undefined;
}

export function createUploadStore(db: Kysely<Database>, quotas: UploadQuotas): UploadStoreApi {
  return {
    async store(userId, file, origin): Promise<StoredUpload | { refused: Message }> {
      const said = await refusal(file.name, file.data);
      if (said) return { refused: said };
      const ext = uploadExtension(file.name)!;
      const holder: Holder = { userId, deviceId: null, address: null };
      const id = randomUUID();
      const now = Date.now();
      // Claimed and written in one transaction under the owner's locks: never over the quota, never half there.
      const over = await withKeyLocks(db, quotaLockKeys(holder), async (trx) => {
        const over = await quotaRefusal(trx, holder, quotas, file.data.byteLength);
        if (over) return over;
        const type = UPLOAD_CONTENT_TYPES[ext];
        await trx
          .insertInto('uploads')
          .values({ id, user_id: userId, device_id: null, address: null, name: file.name, content_type: type, put_type: type, size: file.data.byteLength, ready: 1, created_at: now, expires_at: now })
          .execute();
        await writeParts(trx, id, file.data);
        return undefined;
      });
      if (over) return { refused: over };
      return { id, url: objectUrl(origin, id, file.name) };
    },
    async remove(userId, ids) {
      if (!ids.length) return;
      await db.deleteFrom('uploads').where('user_id', '=', userId).where('id', 'in', ids).execute();
    },
  };
}
