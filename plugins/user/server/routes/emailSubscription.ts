// Subscribing to e-mails or unsubscribing, by a signed link or as the owner of the address.
import { Hono } from 'hono';
import { type AppEnv, translateMessage } from '../../../../src/core/index.ts';
import { emailSubscriptionQuery } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import { htmlPage, pageHeaders, wantsHtml } from '../page.ts';
import { readerLanguage } from '../readerLanguage.ts';
import type { UserRouteDeps } from './deps.ts';

export const emailSubscriptionRoutes = ({ ctx, accounts, validate, answer, refuse, mail }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .get('/api/user/update/email-subscription', validate('query', emailSubscriptionQuery), async (c) => {
      const { email, email_subscription, sig } = c.req.valid('query');
      const user = c.get('user');
      // A signed link from our own mail (opened from anywhere), or the logged-in owner of the
      // address on a page of ours: another site's link must not change it with their cookie.
      const allowed = (sig && ctx.verify(sig, 'email-subscription', email, email_subscription)) || (user && user.email === email && !ctx.crossSite(c));
      if (allowed) await accounts.setEmailSubscription(email, email_subscription === '1');
      const said = !allowed ? MESSAGES.linkInvalid : email_subscription === '1' ? MESSAGES.subscribed : MESSAGES.unsubscribed;
      // The API answers API clients (the Settings page, the terminal); a browser that opens the
      // link in a mail gets a page saying what was done, in the reader's language.
      c.header('Vary', 'Accept');
      if (!wantsHtml(c)) return allowed ? answer(c, undefined, said) : refuse(c, 403, said);
      pageHeaders(c);
      const reader = user ?? (allowed ? await accounts.byEmail(email) : undefined);
      const lang = readerLanguage(reader, c.req.header('accept-language'));
      const t = await ctx.texts(lang, 'user');
      if (!allowed) return c.html(htmlPage(lang, t('page.linkInvalidTitle'), translateMessage(MESSAGES.linkInvalid, () => t)), 403);
      const [title, body] = email_subscription === '1' ? ['page.subscribedTitle', 'page.subscribed'] : ['page.unsubscribedTitle', 'page.unsubscribed'];
      return c.html(htmlPage(lang, t(title), t(body, { email })));
    });
