// What the user API's routes share, built once per server and passed to each route module.
import type { Context } from 'hono';
import { saidBy, type AppEnv, type RefusalStatus, type ServerPluginContext, type UserRow } from '../../../../src/core/index.ts';
import { invitations } from '../invitations.ts';
import { userMail } from '../mail.ts';

type C = Context<AppEnv>;

export function userRouteDeps(ctx: ServerPluginContext) {
  const { accounts, policy, validate, requireUser, answer, refuse } = ctx;
  /** The logged-in user (behind requireUser). */
  const me = (c: C) => c.get('user') as UserRow;
  /** The named user, or the caller when no name is given. */
  const target = async (c: C, username: string | undefined) => (username ? accounts.byUsername(username) : me(c));

  /** Runs an account operation; an AccountError (a status and a message) becomes that refusal, its code kept. */
  const attempt = async <R extends Response>(c: C, run: () => Promise<R>) => {
    try {
      return await run();
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && err instanceof Error && err.message) return refuse(c, status as RefusalStatus, saidBy(err));
      throw err;
    }
  };

  return { ctx, accounts, policy, validate, requireUser, answer, refuse, me, target, attempt, invites: invitations(ctx), mail: userMail(ctx) };
}

export type UserRouteDeps = ReturnType<typeof userRouteDeps>;
