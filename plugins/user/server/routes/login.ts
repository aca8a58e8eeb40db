// Logging in (throttled per name and address) and out.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { loginBody, logoutBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import { expiryProblem, loginExpiry } from '../../common/rules.ts';
import type { UserRouteDeps } from './deps.ts';

export const loginRoutes = ({ ctx, accounts, validate, answer, refuse }: UserRouteDeps) =>
  new Hono<AppEnv>()
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
        ctx.events.emit('login.failed', { reason: 'throttled' });
        c.header('Retry-After', String(Math.ceil(wait / 1000)));
        return refuse(c, 429, MESSAGES.tooManyLogins(Math.ceil(wait / 60_000)));
      }
      const user = await accounts.authenticate(username, password);
      if (!user) {
        await ctx.throttles.login.failed(userKey, address);
        ctx.log.warn({ username: userKey }, 'login failed');
        ctx.events.emit('login.failed', { reason: 'credentials' });
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
    });
