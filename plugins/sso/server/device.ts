// The device authorization grant (RFC 8628) for the terminal client: the server asks the provider
// for a user code (it holds the client secret), the terminal shows it and polls the server, which
// asks the provider at most once per interval. The grant is a database row: any instance polls it.
// It ends as the browser's flow does, in shellchat's own login token.
import type { Context } from 'hono';
import * as client from 'openid-client';
import type { AppEnv, ServerPluginContext } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { Provider, SsoConfig } from './env.ts';
import { base64url, FLOWS_PER_ADDRESS, keepClaims, LOGIN_MS, sha256 } from './flow.ts';
import { identities, type Claims } from './identity.ts';
import { explainFailure, why, type RelyingParty } from './oidc.ts';
import type { SsoDb } from './table.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628's default interval; a provider's own is kept within 1 s to a minute. */
const DEFAULT_INTERVAL = 5;
/** However long the provider gives, a code is polled for an hour at most. */
const LONGEST_S = 3600;

export function devices(ctx: ServerPluginContext, config: SsoConfig, rp: RelyingParty) {
  const db = ctx.db as unknown as SsoDb;
  const people = identities(ctx, config);
  const pending = (c: Context<AppEnv>, interval: number) => ctx.answer(c, { user: null, interval });
  const forget = (hash: string) => db.deleteFrom('sso_devices').where('handle_hash', '=', hash).execute();

  return {
    /** Asks the provider for a user code; the terminal is given it and a handle to poll with. */
    async start(c: Context<AppEnv>, provider: Provider) {
      const address = ctx.clientAddress(c);
      const now = ctx.now();
      await db.deleteFrom('sso_devices').where('expires_at', '<', now).execute();
      const open = await db.selectFrom('sso_devices').select((eb) => eb.fn.countAll<number>().as('n')).where('address', '=', address).executeTakeFirstOrThrow();
      if (Number(open.n) >= FLOWS_PER_ADDRESS) return ctx.refuse(c, 429, MESSAGES.tooManyFlows);
      let configuration: client.Configuration;
      try {
        configuration = await rp.configuration(provider);
      } catch (err) {
        ctx.log.warn({ provider: provider.name, issuer: provider.issuer, error: why(err) }, 'sso discovery failed');
        return ctx.refuse(c, 502, MESSAGES.providerDown(provider.name));
      }
      if (!configuration.serverMetadata().device_authorization_endpoint) {
        ctx.log.info({ provider: provider.name }, 'sso device sign-on asked of a provider without a device_authorization_endpoint');
        return ctx.refuse(c, 400, MESSAGES.deviceUnsupported(provider.name));
      }
      let grant: client.DeviceAuthorizationResponse;
      try {
        const scopes = new Set(['openid', ...provider.scopes.split(/\s+/).filter(Boolean)]);
        grant = await client.initiateDeviceAuthorization(configuration, { scope: [...scopes].join(' ') });
      } catch (err) {
        const { said, log } = explainFailure(err, provider, '');
        ctx.log.warn(log, 'sso device authorization failed');
        return ctx.refuse(c, 502, said);
      }
      const handle = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const interval = Math.min(Math.max(grant.interval ?? DEFAULT_INTERVAL, 1), 60);
      const expiresIn = Math.min(grant.expires_in, LONGEST_S);
      await db
        .insertInto('sso_devices')
        .values({ handle_hash: await sha256(handle), provider: provider.name, device_code: ctx.secrets.seal(grant.device_code), interval_s: interval, next_poll_at: now + interval * 1000, address, created_at: now, expires_at: now + expiresIn * 1000 })
        .execute();
      ctx.log.info({ provider: provider.name }, 'sso device sign-on started');
      return ctx.answer(c, { handle, verificationUri: grant.verification_uri, verificationUriComplete: grant.verification_uri_complete ?? null, userCode: grant.user_code, interval, expiresIn });
    },

    /** One poll of the terminal: pending (and when to ask again), or logged in, or why not. */
    async poll(c: Context<AppEnv>, handle: string, byName: (name: string) => Provider | undefined) {
      const hash = await sha256(handle);
      const now = ctx.now();
      const row = await db.selectFrom('sso_devices').selectAll().where('handle_hash', '=', hash).executeTakeFirst();
      const provider = row && byName(row.provider);
      if (!row || !provider) return ctx.refuse(c, 404, MESSAGES.deviceUnknown);
      if (row.expires_at <= now) {
        await forget(hash);
        return ctx.refuse(c, 404, MESSAGES.deviceExpired);
      }
      if (now < row.next_poll_at) return pending(c, row.interval_s);
      // One question to the provider per interval, across instances: the update that moves the time wins.
      const slot = await db.updateTable('sso_devices').set({ next_poll_at: now + row.interval_s * 1000 }).where('handle_hash', '=', hash).where('next_poll_at', '=', row.next_poll_at).executeTakeFirst();
      if (Number(slot.numUpdatedRows) !== 1) return pending(c, row.interval_s);
      let claims: Claims | undefined;
      try {
        const tokens = await client.genericGrantRequest(await rp.configuration(provider), DEVICE_GRANT, { device_code: ctx.secrets.open(row.device_code) });
        claims = tokens.claims() as unknown as Claims | undefined;
      } catch (err) {
        const providerError = (err as { error?: string }).error;
        if (providerError === 'authorization_pending') return pending(c, row.interval_s);
        if (providerError === 'slow_down') {
          await db.updateTable('sso_devices').set({ interval_s: row.interval_s + 5 }).where('handle_hash', '=', hash).execute();
          return pending(c, row.interval_s + 5);
        }
        await forget(hash);
        if (providerError === 'expired_token') return ctx.refuse(c, 404, MESSAGES.deviceExpired);
        if (providerError === 'access_denied') {
          ctx.log.info({ provider: provider.name }, 'sso device sign-on denied at the provider');
          return ctx.refuse(c, 403, MESSAGES.deviceDenied(provider.name));
        }
        const { said, log } = explainFailure(err, provider, '');
        ctx.log.warn(log, 'sso device sign-on failed');
        return ctx.refuse(c, said.code === 'sso.providerDown' ? 502 : 401, said);
      }
      // Single use: the instance whose delete removed the row logs in.
      const taken = await db.deleteFrom('sso_devices').where('handle_hash', '=', hash).executeTakeFirst();
      if (Number(taken.numDeletedRows) !== 1) return ctx.refuse(c, 404, MESSAGES.deviceUnknown);
      if (!claims) {
        ctx.log.warn({ provider: provider.name }, 'sso device sign-on: the provider gave no ID token (is openid among the scopes?)');
        return ctx.refuse(c, 401, MESSAGES.tokenInvalid('the provider gave no ID token'));
      }
      const resolved = await people.resolve(c, provider, claims, null);
      if ('refused' in resolved) {
        await keepClaims(ctx, provider, claims, null, resolved.outcome);
        ctx.log.warn({ provider: provider.name, subject: claims.sub, outcome: resolved.outcome }, 'sso sign-on refused');
        return ctx.refuse(c, 401, resolved.refused);
      }
      const { user } = resolved;
      await people.applyRules(c, provider, claims, user);
      await keepClaims(ctx, provider, claims, user.username, 'loggedIn');
      const previous = c.get('token');
      if (previous) await ctx.accounts.revokeToken(previous);
      const { token, expiresAt } = await ctx.accounts.createLoginToken(user.id, LOGIN_MS);
      ctx.setLoginCookie(c, token, expiresAt);
      await ctx.sessions.adopt(c, user);
      ctx.log.info({ username: user.username, provider: provider.name, how: 'device' }, 'login by sign-on');
      return ctx.answer(c, { user: await ctx.accounts.toPublic(user), interval: row.interval_s }, MESSAGES.loggedIn(user.username, provider.name));
    },
  };
}
