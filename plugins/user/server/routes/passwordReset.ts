// Resetting a forgotten password by a mailed link: asking, the page behind the link, its button.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { resetPasswordBody, tokenQuery } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import { htmlPage, pageHeaders } from '../page.ts';
import { readerLanguage } from '../readerLanguage.ts';
import type { UserRouteDeps } from './deps.ts';

export const passwordResetRoutes = ({ ctx, accounts, validate, answer, refuse, mail }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/reset-password', validate('json', resetPasswordBody), async (c) => {
      const { username, email } = c.req.valid('json');
      if (!ctx.mail.enabled) return refuse(c, 503, MESSAGES.mailOff);
      const found = await accounts.requestPasswordReset(username, email);
      if (found) {
        const t = await mail.textsFor(c, found.user);
        await mail.send(c, t, {
          to: found.user.email,
          subject: t('mail.resetSubject'),
          text: t('mail.resetText', { username: found.user.username, link: `${mail.linkBase(c)}/api/user/reset-password/confirm?token=${found.token}` }),
        });
      }
      // The same answer either way: it never tells whether the account exists.
      return answer(c, undefined, MESSAGES.resetSent);
    })

    // The page behind a password-reset link. Opening it changes nothing: mail scanners open
    // links in advance, and one that reset the password would leave the person with a used link
    // and an old password that no longer works. Its button POSTs; the new password shows once.
    .get('/api/user/reset-password/confirm', validate('query', tokenQuery), async (c) => {
      const { token } = c.req.valid('query');
      const user = await accounts.passwordResetFor(token);
      pageHeaders(c);
      const lang = readerLanguage(user, c.req.header('accept-language'));
      const t = await ctx.texts(lang, 'user');
      if (!user) return c.html(htmlPage(lang, t('page.expiredTitle'), t('page.resetExpired')), 400);
      const form = { action: '/api/user/reset-password/confirm', fields: { token }, button: t('page.resetButton') };
      return c.html(htmlPage(lang, t('page.resetTitle'), t('page.resetAsk', { username: user.username }), { form }));
    })
    .post('/api/user/reset-password/confirm', async (c) => {
      // The page's form (urlencoded), or JSON from a script.
      const raw: unknown = /json/i.test(c.req.header('content-type') ?? '') ? await c.req.json().catch(() => ({})) : await c.req.parseBody().catch(() => ({}));
      const parsed = tokenQuery.safeParse(raw);
      const reset = parsed.success ? await accounts.confirmPasswordReset(parsed.data.token) : undefined;
      pageHeaders(c);
      const lang = readerLanguage(reset?.user, c.req.header('accept-language'));
      const t = await ctx.texts(lang, 'user');
      if (!reset) return c.html(htmlPage(lang, t('page.expiredTitle'), t('page.resetExpired')), 400);
      ctx.log.info({ username: reset.user.username }, 'password reset');
      return c.html(htmlPage(lang, t('page.newPasswordTitle'), t('page.newPassword', { username: reset.user.username }), { code: reset.password }));
    });
