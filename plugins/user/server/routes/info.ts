// Who is logged in, with their fees, and their usage by period.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { totalFees, usageFor } from '../usage.ts';
import type { UserRouteDeps } from './deps.ts';

export const infoRoutes = ({ ctx, accounts, requireUser, answer, me }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .get('/api/user/info', requireUser, async (c) => answer(c, { ...(await accounts.toPublic(me(c))), usage: await totalFees(ctx.db, me(c)) }))
    .get('/api/user/usage', requireUser, async (c) => answer(c, await usageFor(ctx.db, me(c), ctx.config.usageLimits)));
