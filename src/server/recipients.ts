// Who may give a store or a node to whom (issue 27): one rule for both, decided here.
// - The system (and root's own account, whose stores are the system's) takes only what root
//   gives it: anything else would publish a user's text into everybody's prompts.
// - A group: one the giver belongs to (its members shared its password to share data).
// - A user: root gives to anyone; anybody else to a member of a group they belong to, so that
//   nothing lands in the account of a stranger who never agreed to share with the giver.
import type { Message } from '../core/messages.ts';
import type { Kysely } from 'kysely';
import { rankOf, ROLE_RANKS, type Database, type Recipient, type UserRow } from '../core/index.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';

const isRoot = (user: UserRow) => rankOf(user.role) >= ROLE_RANKS.root_user;

export async function recipientOf(
  db: Kysely<Database>,
  byUsername: (name: string) => Promise<UserRow | undefined>,
  giver: UserRow,
  raw: string,
): Promise<Recipient> {
  const name = raw.trim();
  const refuse = (status: 403 | 404, error: Message): Recipient => ({ kind: 'refused', status, error });
  if (name.toLowerCase() === 'system') return isRoot(giver) ? { kind: 'system' } : refuse(403, SERVER_MESSAGES.giveSystemRootOnly);
  if (name.startsWith('group:')) {
    const groupName = name.slice('group:'.length).trim().toLowerCase();
    let query = db.selectFrom('groups').select(['groups.id', 'groups.name', 'groups.owner_id']).where('groups.name', '=', groupName);
    if (!isRoot(giver)) {
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('group_members').select('group_id').whereRef('group_members.group_id', '=', 'groups.id').where('group_members.user_id', '=', giver.id)),
      );
    }
    const group = await query.executeTakeFirst();
    if (!group) return refuse(404, SERVER_MESSAGES.giveNoSuchOwner);
    return { kind: 'group', id: Number(group.id), name: group.name, ownerId: Number(group.owner_id) };
  }
  const user = await byUsername(name.toLowerCase());
  if (!user) return refuse(404, SERVER_MESSAGES.giveNoSuchOwner);
  if (user.id === giver.id || isRoot(giver)) return { kind: 'user', user };
  if (isRoot(user)) return refuse(403, SERVER_MESSAGES.giveSystemRootOnly);
  const shared = await db
    .selectFrom('group_members as mine')
    .innerJoin('group_members as theirs', 'theirs.group_id', 'mine.group_id')
    .select('mine.group_id')
    .where('mine.user_id', '=', giver.id)
    .where('theirs.user_id', '=', user.id)
    .executeTakeFirst();
  return shared ? { kind: 'user', user } : refuse(403, SERVER_MESSAGES.giveNotShared(user.username));
}
