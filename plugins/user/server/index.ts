// The user API of spec part 7: accounts, login sessions, settings, groups, e-mail links.
// Every decision about who may act on whom goes through ctx.policy.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { saidBy, type AppEnv, type RefusalStatus, type ServerPluginContext, type ServerPluginModule, type UserRow } from '../../../src/core/index.ts';
import {
  addUserBody,
  deleteUserBody,
  emailSubscriptionQuery,
  groupJoinBody,
  groupLeaveBody,
  loginBody,
  logoutBody,
  resetPasswordBody,
  resetSettingBody,
  tokenQuery,
  updateBalanceBody,
  updateEmailBody,
  updatePasswordBody,
  updateRoleBody,
  updateSettingBody,
} from '../../../src/core/api/user.ts';
import { expiryProblem, loginExpiry, MESSAGES } from '../common/rules.ts';
import { forgetInvitations, invitations, invitationsMigration } from './invitations.ts';
import { userMail } from './mail.ts';
import { htmlPage, pageHeaders, wantsHtml } from './page.ts';
import { readerLanguage } from './readerLanguage.ts';
import { totalFees, usageDeviceMigration, usageFor } from './usage.ts';
import { registerUseLimit } from './useLimit.ts';
import userEnv from './env.ts';

type C = Context<AppEnv>;

/** The user API's routes; the browser's client is typed from them (UserRoutes). */
export function userRoutes(ctx: ServerPluginContext) {
  const { accounts, policy, validate, requireUser, answer, refuse } = ctx;
  const me = (c: C) => c.get('user') as UserRow;
  const target = async (c: C, username: string | undefined) => (username ? accounts.byUsername(username) : me(c));
  const invites = invitations(ctx);
  const mail = userMail(ctx);

  /** Runs an account operation; an AccountError (a status and a message) becomes that refusal, its code kept. */
  const attempt = async <R extends Response>(c: C, run: () => Promise<R>) => {
    try {
      return await run();
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && err instanceof Error && err.message) return refuse(c, status as RefusalStatus, saidBy(err));
      throw err;
    }
  };

  return new Hono<AppEnv>()
    .get('/api/user/info', requireUser, async (c) => answer(c, { ...(await accounts.toPublic(me(c))), usage: await totalFees(ctx.db, me(c)) }))

    .get('/api/user/usage', requireUser, async (c) => answer(c, await usageFor(ctx.db, me(c), ctx.config.usageLimits)))

    .post('/api/user/login', validate('json', loginBody), async (c) => {
      const { username, password, expiresIn } = c.req.valid('json');
      const ttl = loginExpiry(expiresIn);
      if (ttl === undefined) return refuse(c, 400, expiryProblem(expiresIn) ?? MESSAGES.invalidExpiry);
      const userKey = username.trim().toLowerCase();
      const address = ctx.clientAddress(c);
      // Failures count per (username, address), per address, and per username from anywhere
      // (src/server/auth/throttles.ts): a stranger's guesses do not lock the owner out.
      const wait = await ctx.throttles.login.wait(userKey, address);
      if (wait > 0) {
        c.header('Retry-After', String(Math.ceil(wait / 1000)));
        return refuse(c, 429, MESSAGES.tooManyLogins(Math.ceil(wait / 60_000)));
      }
      const user = await accounts.authenticate(username, password);
      if (!user) {
        await ctx.throttles.login.failed(userKey, address);
        ctx.log.warn({ username: userKey }, 'login failed');
        return refuse(c, 401, MESSAGES.badLogin);
      }
      await ctx.throttles.login.succeeded(userKey, address);
      // A login replaces the one this browser had.
      const previous = c.get('token');
      if (previous) await accounts.revokeToken(previous);
      const { token, expiresAt } = await accounts.createLoginToken(user.id, ttl);
      ctx.setLoginCookie(c, token, expiresAt);
      // A conversation begun before the login goes on in the account (docs: "Logging in").
      await ctx.sessions.adopt(c, user);
      ctx.log.info({ username: user.username }, 'login');
      return answer(c, { user: await accounts.toPublic(user), expires_at: expiresAt }, MESSAGES.loggedIn(user.username));
    })

    .post('/api/user/logout', validate('json', logoutBody), async (c) => {
      const token = c.get('token');
      if (token) await accounts.revokeToken(token);
      ctx.clearLoginCookie(c);
      return token ? answer(c, undefined, MESSAGES.loggedOut) : refuse(c, 401, MESSAGES.notLoggedIn);
    })

    .post('/api/user/add', validate('json', addUserBody), (c) =>
      attempt(c, async () => {
        const body = c.req.valid('json');
        const address = ctx.clientAddress(c);
        const wait = Math.max(await ctx.throttles.signups.retryAfter(address), await ctx.throttles.signupProbes.retryAfter(address));
        if (wait > 0) {
          c.header('Retry-After', String(Math.ceil(wait / 1000)));
          return refuse(c, 429, MESSAGES.tooManySignups);
        }
        let settings: Record<string, unknown> = {};
        try {
          const parsed: unknown = body.settings ? JSON.parse(body.settings) : {};
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) settings = parsed as Record<string, unknown>;
        } catch {
          return refuse(c, 400, MESSAGES.settingsNotJson);
        }
        const { user, generatedPassword } = await accounts.create({ ...body, settings }).catch(async (err: unknown) => {
          // 'Username already exists.' and its e-mail twin tell who has an account: counted.
          if ((err as { status?: unknown }).status === 409) await ctx.throttles.signupProbes.fail(address);
          throw err;
        });
        await ctx.throttles.signups.fail(address);
        await invites.rewardSignup(user);
        let password: string | undefined = generatedPassword;
        if (generatedPassword && ctx.mail.enabled) {
          const t = await mail.textsFor(c, user);
          await mail.send(c, t, {
            to: user.email,
            subject: t('mail.accountSubject'),
            text: t('mail.accountText', { username: user.username, password: generatedPassword }),
          });
          password = undefined;
        }
        ctx.log.info({ username: user.username }, 'user added');
        const message = generatedPassword
          ? password
            ? MESSAGES.addedShown(user.username, password)
            : MESSAGES.addedMailed(user.username, user.email)
          : MESSAGES.added(user.username);
        return answer(c, { user: { username: user.username, email: user.email }, ...(password ? { password } : {}) }, message);
      }),
    )

    .post('/api/user/delete', requireUser, validate('json', deleteUserBody), (c) =>
      attempt(c, async () => {
        const victim = await accounts.byUsername(c.req.valid('json').username);
        if (!victim) return refuse(c, 404, MESSAGES.userNotFound);
        if (!policy.can(me(c), 'user.delete', victim)) return refuse(c, 403, MESSAGES.cannotDelete);
        await accounts.delete(victim);
        if (victim.id === me(c).id) ctx.clearLoginCookie(c);
        ctx.log.info({ username: victim.username, by: me(c).username }, 'user deleted');
        return answer(c, undefined, MESSAGES.removed);
      }),
    )

    .post('/api/user/update/setting', requireUser, validate('json', updateSettingBody), (c) =>
      attempt(c, async () => {
        const { key, value } = c.req.valid('json');
        return answer(c, { settings: await accounts.updateSetting(me(c), key, value) }, MESSAGES.settingUpdated);
      }),
    )

    .post('/api/user/reset-setting', requireUser, validate('json', resetSettingBody), (c) =>
      attempt(c, async () => answer(c, { settings: await accounts.resetSetting(me(c), c.req.valid('json').key) }, MESSAGES.settingReset)),
    )

    .post('/api/user/reset-settings', requireUser, async (c) => answer(c, { settings: await accounts.resetSettings(me(c)) }, MESSAGES.settingsReset))

    .post('/api/user/update/password', requireUser, validate('json', updatePasswordBody), (c) =>
      attempt(c, async () => {
        await accounts.updatePassword(me(c), c.req.valid('json').password);
        // Other browsers logged in with the old password are logged out.
        await accounts.revokeAllTokens(me(c).id, c.get('token') ?? undefined);
        ctx.log.info({ username: me(c).username }, 'password changed');
        return answer(c, undefined, MESSAGES.passwordUpdated);
      }),
    )

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
    })

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
    })

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
        return answer(c, undefined, MESSAGES.joined(group.toLowerCase()));
      }),
    )

    .post('/api/user/group/leave', requireUser, validate('json', groupLeaveBody), (c) =>
      attempt(c, async () => {
        const { group } = c.req.valid('json');
        await accounts.leaveGroup(me(c), group);
        return answer(c, undefined, MESSAGES.left(group.toLowerCase()));
      }),
    )

    .post('/api/user/update/balance', requireUser, validate('json', updateBalanceBody), async (c) => {
      const { amount, username } = c.req.valid('json');
      const user = await target(c, username);
      if (!user) return refuse(c, 404, MESSAGES.userNotFound);
      if (!policy.can(me(c), 'user.balance.update', user)) return refuse(c, 403, MESSAGES.rootBalances);
      return answer(c, { balance: await accounts.addBalance(user, amount) }, MESSAGES.balanceUpdated);
    })

    .post('/api/user/update/role', requireUser, validate('json', updateRoleBody), async (c) => {
      const { role, username, expires_at } = c.req.valid('json');
      const user = await target(c, username);
      if (!user) return refuse(c, 404, MESSAGES.userNotFound);
      if (!policy.can(me(c), 'user.role.update', user)) return refuse(c, 403, MESSAGES.rootRoles);
      await accounts.setRole(user, role, expires_at ?? null);
      return answer(c, undefined, MESSAGES.roleUpdated);
    })

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
    )

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
      if (!allowed) return c.html(htmlPage(lang, t('page.linkInvalidTitle'), t('err.linkInvalid')), 403);
      const [title, body] = email_subscription === '1' ? ['page.subscribedTitle', 'page.subscribed'] : ['page.unsubscribedTitle', 'page.unsubscribed'];
      return c.html(htmlPage(lang, t(title), t(body, { email })));
    });
}

export type UserRoutes = ReturnType<typeof userRoutes>;

/** What goes with the routes: a deleted account's invitations, and the usage limits (counted when a question starts). */
function registerUser(ctx: ServerPluginContext): void {
  forgetInvitations(ctx);
  registerUseLimit(ctx);
}

const module: ServerPluginModule = {
  // Names sort across every plugin: a migration added later takes a number after all others.
  migrations: { '0100_user_invitations': invitationsMigration, '0500_user_usage_device': usageDeviceMigration },
  routes: userRoutes,
  register: registerUser,
};
export default module;
