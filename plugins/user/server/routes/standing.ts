// What root changes of an account: its balance and its role.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { updateBalanceBody, updateRoleBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const standingRoutes = ({ ctx, accounts, policy, validate, requireUser, answer, refuse, me, target }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/update/balance', requireUser, validate('json', updateBalanceBody), async (c) => {
      const { amount, username } = c.req.valid('json');
      const user = await target(c, username);
      if (!user) return refuse(c, 404, MESSAGES.userNotFound);
      if (!policy.can(me(c), 'user.balance.update', user)) return refuse(c, 403, MESSAGES.rootBalances);
      const balance = await accounts.addBalance(user, amount);
      ctx.audit.record(c, { kind: 'user.balance', target: `user:${user.username}`, before: { balance: Number(user.balance_cents) / 100 }, after: { balance, added: amount } });
      return answer(c, { balance }, MESSAGES.balanceUpdated);
    })
    .post('/api/user/update/role', requireUser, validate('json', updateRoleBody), async (c) => {
      const { role, username, expires_at } = c.req.valid('json');
      const user = await target(c, username);
      if (!user) return refuse(c, 404, MESSAGES.userNotFound);
      if (!policy.can(me(c), 'user.role.update', user)) return refuse(c, 403, MESSAGES.rootRoles);
      await accounts.setRole(user, role, expires_at ?? null);
      const expiry = (at: number | null) => (at === null ? null : Number(at));
      ctx.audit.record(c, { kind: 'user.role', target: `user:${user.username}`, before: { role: user.role, expires_at: expiry(user.role_expires_at) }, after: { role, expires_at: expires_at ?? null } });
      return answer(c, undefined, MESSAGES.roleUpdated);
    });
