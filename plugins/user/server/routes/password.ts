// Changing one's password logs out the other browsers.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { updatePasswordBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const passwordRoutes = ({ ctx, accounts, validate, requireUser, answer, me, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/update/password', requireUser, validate('json', updatePasswordBody), (c) =>
      attempt(c, async () => {
        await accounts.updatePassword(me(c), c.req.valid('json').password);
        // Other browsers logged in with the old password are logged out.
        await accounts.revokeAllTokens(me(c).id, c.get('token') ?? undefined);
        ctx.log.info({ username: me(c).username }, 'password changed');
        return answer(c, undefined, MESSAGES.passwordUpdated);
      }),
    );
