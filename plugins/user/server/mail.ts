// What the account routes write to a person outside the app: e-mails in the reader's language,
// each ending with a signed link that unsubscribes the address, and the links' base.
import type { Context } from 'hono';
import type { AppEnv, ServerPluginContext, Translate, UserRow } from '../../../src/core/index.ts';
import { readerLanguage } from './readerLanguage.ts';

type C = Context<AppEnv>;

export function userMail(ctx: ServerPluginContext) {
  /** Where links in e-mails point: PUBLIC_URL, else the request's origin. */
  const linkBase = (c: C) => ctx.publicUrl || new URL(c.req.url).origin;

  /** The user namespace's strings for a reader: their saved language, else the browser's. */
  const textsFor = (c: C, user: Pick<UserRow, 'settings'> | null | undefined) => ctx.texts(readerLanguage(user, c.req.header('accept-language')), 'user');

  /** Sends a mail; every one ends with a signed link that unsubscribes the address. */
  const send = (c: C, t: Translate, mail: { to: string; subject: string; text: string }): Promise<void> => {
    const query = new URLSearchParams({ email: mail.to, email_subscription: '0', sig: ctx.sign('email-subscription', mail.to, '0') });
    const footer = t('mail.footer', { email: mail.to, link: `${linkBase(c)}/api/user/update/email-subscription?${query}` });
    return ctx.mail.send({ ...mail, text: `${mail.text}\n${footer}` });
  };

  return { linkBase, textsFor, send };
}
