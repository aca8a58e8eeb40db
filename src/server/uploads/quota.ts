// What uploads one may keep (issue 34). A user: UPLOAD_QUOTA_MB. A visitor without an account:
// as much per browser, and also within what the visitors at their address keep together
// (UPLOAD_ADDRESS_QUOTA_MB) and what all visitors keep on the server (UPLOAD_ANONYMOUS_TOTAL_MB),
// so that a fresh device cookie for every file no longer fills the disk.
// An upload's size is claimed, inside a transaction that holds the owner's locks
// (db/keyLock.ts), before its bytes are written: uploads sent at once are counted one after the
// other, and the bytes still being written count as well.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/index.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export interface UploadQuotas {
  /** Per user, and per visitor's browser (UPLOAD_QUOTA_MB). */
  ownerBytes: number;
  /** The visitors at one address together (UPLOAD_ADDRESS_QUOTA_MB). */
  addressBytes: number;
  /** Every visitor on the server together (UPLOAD_ANONYMOUS_TOTAL_MB). */
  totalBytes: number;
}

/** Whose an upload is, as its row says. */
export interface Holder {
  userId: number | null;
  deviceId: string | null;
  address: string | null;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The locks a holder's quotas are checked under: every visitor shares the server's total. */
export function quotaLockKeys(holder: Holder): string[] {
  if (holder.userId !== null) return [`uploads:user:${holder.userId}`];
  return [`uploads:device:${holder.deviceId}`, ...(holder.address ? [`uploads:address:${holder.address}`] : []), 'uploads:visitors'];
}

/** Bytes held (kept, or being written) by the uploads `where` picks. */
async function held(db: Kysely<Database>, where: (q: ReturnType<typeof base>) => ReturnType<typeof base>): Promise<number> {
  const row = await where(base(db)).executeTakeFirst();
  return Number(row?.bytes ?? 0);
}
const base = (db: Kysely<Database>) => db.selectFrom('uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'));

/**
 * Why `adding` more bytes would pass one of the holder's quotas (its message), or undefined.
 * With `adding` 0: whether nothing at all is left.
 */
export async function quotaRefusal(db: Kysely<Database>, holder: Holder, quotas: UploadQuotas, adding: number): Promise<Message | undefined> {
  const over = (bytes: number, quota: number) => (adding ? bytes + adding > quota : bytes >= quota);
  if (holder.userId !== null) {
    const mine = await held(db, (q) => q.where('user_id', '=', holder.userId));
    return over(mine, quotas.ownerBytes) ? SERVER_MESSAGES.uploadQuota(mb(quotas.ownerBytes)) : undefined;
  }
  const visitors = (q: ReturnType<typeof base>) => q.where('user_id', 'is', null);
  if (over(await held(db, (q) => visitors(q).where('device_id', '=', holder.deviceId)), quotas.ownerBytes)) return SERVER_MESSAGES.uploadQuota(mb(quotas.ownerBytes));
  if (holder.address && over(await held(db, (q) => visitors(q).where('address', '=', holder.address)), quotas.addressBytes)) {
    return SERVER_MESSAGES.uploadAddressQuota(mb(quotas.addressBytes));
  }
  if (over(await held(db, visitors), quotas.totalBytes)) return SERVER_MESSAGES.uploadVisitorsFull;
  return undefined;
}
