// Signing up: throttled per address, a generated password shown once or mailed.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { addUserBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const signUpRoutes = ({ ctx, accounts, validate, answer, refuse, invites, mail, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
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
    );
