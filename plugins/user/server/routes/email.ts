// Changing one's e-mail address: a link mailed to the new one, and the page behind it.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { tokenQuery, updateEmailBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import { htmlPage } from '../page.ts';
import { readerLanguage } from '../readerLanguage.ts';
import type { UserRouteDeps } from './deps.ts';

export const emailRoutes = ({ ctx, accounts, validate, requireUser, answer, refuse, me, mail, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/update/email', requireUser, validate('json', updateEmailBody), (c) =>
      attempt(c, async () => {
        if (!ctx.mail.enabled) return refuse(c, 503, MESSAGES.mailOff);
        const email = c.req.valid('json').email.trim();
        const token = await accounts.requestEmailChange(me(c), email);
        const t = await mail.textsFor(c, me(c));
        await mail.send(c, t, {
          to: email,
          subject: t('mail.verifySubject'),
          text: t('mail.verifyText', { email, username: me(c).username, link: `${mail.linkBase(c)}/api/user/verify-email?token=${token}` }),
        });
        return answer(c, undefined, MESSAGES.verifySent(email));
      }),
    )

    // The page behind the verification link of an e-mail change.
    .get('/api/user/verify-email', validate('query', tokenQuery), async (c) => {
      const user = await accounts.confirmEmailChange(c.req.valid('query').token);
      const lang = readerLanguage(user, c.req.header('accept-language'));
      const t = await ctx.texts(lang, 'user');
      return c.html(
        user
          ? htmlPage(lang, t('page.emailUpdatedTitle'), t('page.emailUpdated', { username: user.username, email: user.email }))
          : htmlPage(lang, t('page.expiredTitle'), t('page.expired')),
        user ? 200 : 400,
      );
    });
