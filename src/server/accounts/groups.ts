// Groups: each user's own (named after them) and those they joined with the owner's group
// password.
import type { Kysely } from 'kysely';
import type { Database, UserRow, UserSettingRules } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { AccountError } from './accountError.ts';
import { normalizeUsername } from './validation.ts';

/** The groups a user belongs to (their own included), by name: where what their groups may see starts. */
export function groupsOf(db: Kysely<Database>, userId: number): Promise<{ id: number; name: string; owner_id: number }[]> {
  return db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['groups.id', 'groups.name', 'groups.owner_id'])
    .where('group_members.user_id', '=', userId)
    .orderBy('groups.name')
    .execute();
}

/** Joins another user's group with that user's group password. */
export async function joinGroup(db: Kysely<Database>, settings: UserSettingRules, user: UserRow, groupName: string, password: string): Promise<void> {
  const group = await db.selectFrom('groups').selectAll().where('name', '=', normalizeUsername(groupName)).executeTakeFirst();
  const owner = group ? await db.selectFrom('users').selectAll().where('id', '=', group.owner_id).executeTakeFirst() : undefined;
  const expected = owner ? settings.normalize(owner.settings).groupPassword : '';
  // One answer for a missing group and a wrong password, so group names cannot be probed.
  if (!group || !expected || !(await constantTimeEqual(String(expected), password))) {
    throw new AccountError(SERVER_MESSAGES.groupDenied, 403);
  }
  const existing = await db.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).where('user_id', '=', user.id).executeTakeFirst();
  if (existing) throw new AccountError(SERVER_MESSAGES.alreadyInGroup(group.name), 409);
  await db.insertInto('group_members').values({ group_id: group.id, user_id: user.id, created_at: Date.now() }).execute();
}

export async function leaveGroup(db: Kysely<Database>, user: UserRow, groupName: string): Promise<void> {
  const group = await db.selectFrom('groups').selectAll().where('name', '=', normalizeUsername(groupName)).executeTakeFirst();
  if (!group) throw new AccountError(SERVER_MESSAGES.groupNotFound, 404);
  if (group.owner_id === user.id) throw new AccountError(SERVER_MESSAGES.ownGroup);
  const result = await db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', user.id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AccountError(SERVER_MESSAGES.notInGroup(group.name), 404);
}

async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const { timingSafeEqual, createHash } = await import('node:crypto');
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
