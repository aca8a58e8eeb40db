// Deleting an account: one's own, or another's as the policy allows.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { deleteUserBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const deleteUserRoutes = ({ ctx, accounts, policy, validate, requireUser, answer, refuse, me, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/delete', requireUser, validate('json', deleteUserBody), (c) =>
      attempt(c, async () => {
        const victim = await accounts.byUsername(c.req.valid('json').username);
        if (!victim) return refuse(c, 404, MESSAGES.userNotFound);
        if (!policy.can(me(c), 'user.delete', victim)) return refuse(c, 403, MESSAGES.cannotDelete);
        await accounts.delete(victim);
        if (victim.id === me(c).id) ctx.clearLoginCookie(c);
        ctx.log.info({ username: victim.username, by: me(c).username }, 'user deleted');
        ctx.audit.record(c, { kind: 'user.delete', target: `user:${victim.username}`, before: { role: victim.role } });
        return answer(c, undefined, MESSAGES.removed);
      }),
    );
