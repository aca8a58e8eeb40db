// Inviting someone by e-mail.
import { Hono } from 'hono';
import { z } from 'zod';
import { type AppEnv } from '../../../../src/core/index.ts';
import { MESSAGES } from '../../common/messages.ts';
import userEnv from '../env.ts';
import type { UserRouteDeps } from './deps.ts';

export const inviteRoutes = ({ ctx, requireUser, answer, refuse, me, invites, mail, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .get('/api/invite/:email', requireUser, (c) =>
      attempt(c, async () => {
        // The spec makes this a GET, so the origin check does not cover it: refuse a navigation
        // started by another site (a link that would make the user send mail).
        if (ctx.crossSite(c)) return refuse(c, 403, MESSAGES.crossOrigin);
        const email = z.string().max(254).safeParse(decodeURIComponent(c.req.param('email')));
        if (!email.success || !/^[^@\s]+@[^@\s]+$/.test(email.data)) return refuse(c, 400, MESSAGES.emailInvalid);
        if (!ctx.mail.enabled) return refuse(c, 503, MESSAGES.mailOff);
        const invited = await invites.invite(me(c), email.data);
        if (!invited.ok) return refuse(c, invited.status, invited.error);
        const address = email.data.trim().toLowerCase();
        // In the inviter's language: the invitee has no account yet, and likely shares it.
        const t = await mail.textsFor(c, me(c));
        const username = me(c).username;
        const { inviteReward } = userEnv.of(ctx);
        const reward = inviteReward > 0 ? t('mail.inviteReward', { username, amount: inviteReward }) : '';
        await mail.send(c, t, {
          to: address,
          subject: t('mail.inviteSubject', { username }),
          text: t('mail.inviteText', { username, link: `${mail.linkBase(c)}/`, email: address, reward }),
        });
        return answer(c, undefined, MESSAGES.invited(address));
      }),
    );
