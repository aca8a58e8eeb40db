// Joining a group by its password (throttled) and leaving it.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { groupJoinBody, groupLeaveBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const groupsRoutes = ({ ctx, accounts, policy, validate, requireUser, answer, refuse, me, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/group/join', requireUser, validate('json', groupJoinBody), (c) =>
      attempt(c, async () => {
        const { group, password } = c.req.valid('json');
        if (!policy.can(me(c), 'group.join')) return refuse(c, 403, MESSAGES.cannotJoin);
        // Wrong group passwords count as wrong login passwords do, apart from them.
        const target = group.trim().toLowerCase();
        const address = ctx.clientAddress(c);
        const wait = await ctx.throttles.groupJoin.wait(target, address);
        if (wait > 0) {
          c.header('Retry-After', String(Math.ceil(wait / 1000)));
          return refuse(c, 429, MESSAGES.tooManyJoins(Math.ceil(wait / 60_000)));
        }
        await accounts.joinGroup(me(c), group, password).catch(async (err: unknown) => {
          if ((err as { status?: unknown }).status === 403) await ctx.throttles.groupJoin.failed(target, address);
          throw err;
        });
        await ctx.throttles.groupJoin.succeeded(target, address);
        ctx.audit.record(c, { kind: 'group.join', target: `group:${target}`, after: { member: me(c).username } });
        return answer(c, undefined, MESSAGES.joined(group.toLowerCase()));
      }),
    )
    .post('/api/user/group/leave', requireUser, validate('json', groupLeaveBody), (c) =>
      attempt(c, async () => {
        const { group } = c.req.valid('json');
        await accounts.leaveGroup(me(c), group);
        ctx.audit.record(c, { kind: 'group.leave', target: `group:${group.trim().toLowerCase()}`, before: { member: me(c).username } });
        return answer(c, undefined, MESSAGES.left(group.toLowerCase()));
      }),
    );
