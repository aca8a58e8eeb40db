// What a browser made before its visitor logged in (issue 19): at login the account takes this
// browser's anonymous sessions with their logs, and its uploads, so a conversation begun
// before sign-up goes on in the account (and its pictures count against the account's quota).
import type { Kysely } from 'kysely';
import type { AdoptHook, Database } from '../../core/index.ts';

/** Moves the device's anonymous sessions, logs and uploads (and the plugins' `hooks` rows) to the user; returns the sessions moved. */
export async function adoptDevice(db: Kysely<Database>, deviceId: string, userId: number, hooks: readonly AdoptHook[] = []): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const anonymous = { user_id: userId, device_id: null };
    const moved = await trx
      .updateTable('sessions')
      .set({ ...anonymous, updated_at: Date.now() })
      .where('user_id', 'is', null)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    await trx.updateTable('logs').set(anonymous).where('user_id', 'is', null).where('device_id', '=', deviceId).execute();
    await trx.updateTable('uploads').set(anonymous).where('user_id', 'is', null).where('device_id', '=', deviceId).execute();
    for (const hook of hooks) await hook(trx, deviceId, userId);
    return Number(moved.numUpdatedRows);
  });
}
