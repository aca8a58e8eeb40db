// Invitations (spec part 7: GET /api/invite/{email}; part 9: both parties get a reward).
// A logged-in user invites an address; when that address signs up, the inviter and the new
// user each get INVITE_REWARD dollars of balance, once.
import type { Kysely } from 'kysely';
import type { Database, Message, MigrationFactory, ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import userEnv from './env.ts';

interface InvitationsTable {
  email: string;
  inviter_id: number;
  created_at: number;
  rewarded_at: number | null;
}
type Db = Kysely<Database & { invitations: InvitationsTable }>;

export const invitationsMigration: MigrationFactory = (_engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('invitations')
      .addColumn('email', c.name, (col) => col.notNull())
      .addColumn('inviter_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('rewarded_at', c.bigint)
      .addPrimaryKeyConstraint('invitations_pk', ['email', 'inviter_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('invitations').ifExists().execute();
  },
});

const DAY = 86_400_000;

/** A deleted account's invitations go with it. */
export function forgetInvitations(ctx: ServerPluginContext): void {
  const db = ctx.db as unknown as Db;
  ctx.accounts.onDelete(async (userId) => {
    await db.deleteFrom('invitations').where('inviter_id', '=', userId).execute();
  });
}

export function invitations(ctx: ServerPluginContext) {
  const db = ctx.db as unknown as Db;
  return {
    /** Records an invitation; refuses addresses with an account and repeats within a day. */
    async invite(inviter: UserRow, email: string): Promise<{ ok: true } | { ok: false; error: Message; status: 400 | 409 }> {
      const address = email.trim().toLowerCase();
      const taken = await db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
      if (taken) return { ok: false, error: MESSAGES.hasAccount, status: 409 };
      const existing = await db.selectFrom('invitations').selectAll().where('email', '=', address).where('inviter_id', '=', inviter.id).executeTakeFirst();
      if (existing && Date.now() - existing.created_at < DAY) return { ok: false, error: MESSAGES.invitedToday(address), status: 409 };
      if (existing) await db.updateTable('invitations').set({ created_at: Date.now() }).where('email', '=', address).where('inviter_id', '=', inviter.id).execute();
      else await db.insertInto('invitations').values({ email: address, inviter_id: inviter.id, created_at: Date.now(), rewarded_at: null }).execute();
      return { ok: true };
    },
    /** After a sign-up: rewards the first inviter of this address and the new user, once. */
    async rewardSignup(user: UserRow): Promise<void> {
      const reward = userEnv.of(ctx).inviteReward;
      if (reward <= 0) return;
      const invitation = await db
        .selectFrom('invitations')
        .selectAll()
        .where('email', '=', user.email.toLowerCase())
        .where('rewarded_at', 'is', null)
        .orderBy('created_at')
        .executeTakeFirst();
      if (!invitation) return;
      const inviter = await db.selectFrom('users').selectAll().where('id', '=', invitation.inviter_id).executeTakeFirst();
      await db.updateTable('invitations').set({ rewarded_at: Date.now() }).where('email', '=', invitation.email).execute();
      // Through the ledger, once each: the references make a second sign-up hook a no-op.
      const reference = `invite:${invitation.email}:${invitation.inviter_id}`;
      if (inviter) await ctx.accounts.addBalance(inviter, reward, `${reference}:inviter`);
      await ctx.accounts.addBalance(user, reward, `${reference}:invitee`);
    },
  };
}
