// The authorization code flow with PKCE, `state` and `nonce`: begun on any instance, finished on
// any other (the flow is a database row, single use, ten minutes), bound to the browser that
// began it by a cookie. It ends in shellchat's own login token: the provider's tokens are
// checked and dropped.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as client from 'openid-client';
import type { AppEnv, Message, ServerPluginContext } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { Provider, SsoConfig } from './env.ts';
import { identities, type Claims } from './identity.ts';
import { explainFailure, why, type RelyingParty } from './oidc.ts';
import type { SsoDb } from './table.ts';

const FLOW_MS = 10 * 60_000;
/** Sign-ons under way at once from one address: each is a row until it ends or expires. */
export const FLOWS_PER_ADDRESS = 20;
export const LOGIN_MS = 24 * 3_600_000;
/** How many sign-ons' claims root's `:sso test` keeps. */
const CLAIMS_KEPT = 20;
export const FLOW_COOKIE = 'sso_flow';
export const SAID_COOKIE = 'sso_said';
const COOKIE_PATH = '/api/sso';

export const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
export const sha256 = async (s: string) => base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))));

/** Where the browser comes back: PUBLIC_URL, else the origin the request came to. */
export function originOf(ctx: ServerPluginContext, c: Context<AppEnv>): string {
  if (ctx.publicUrl) return new URL(ctx.publicUrl).origin;
  const url = new URL(c.req.url);
  const host = c.req.header('host') ?? url.host;
  // Behind a TLS proxy the browser's scheme is the proxy's. Trusting it is harmless here: it
  // only names the return address of this browser's own flow, which the provider checks.
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
  const scheme = forwarded === 'https' || forwarded === 'http' ? `${forwarded}:` : url.protocol;
  return `${scheme}//${host}`;
}

export const CALLBACK_PATH = '/api/sso/callback';
/** The redirect URI of this server, as the provider must have it registered. */
export const callbackUri = (ctx: ServerPluginContext, c: Context<AppEnv>) => `${originOf(ctx, c)}${CALLBACK_PATH}`;

/** Which outcome a flow had: a message name and its values, signed, for the shell to say. */
export interface Said {
  name: keyof typeof MESSAGES;
  values: (string | number)[];
}

/** Root's `:sso test`: the claims as the ID token had them; its own fields about the token stay out (never the token). */
export async function keepClaims(ctx: ServerPluginContext, provider: Provider, claims: Claims, username: string | null, outcome: string): Promise<void> {
  const db = ctx.db as unknown as SsoDb;
  const { at_hash: _a, c_hash: _c, nonce: _n, ...kept } = claims;
  await db.insertInto('sso_claims').values({ provider: provider.name, subject: claims.sub, username, outcome, claims: JSON.stringify(kept).slice(0, 16_000), created_at: ctx.now() }).execute();
  const old = await db.selectFrom('sso_claims').select('id').orderBy('id', 'desc').offset(CLAIMS_KEPT).limit(100).execute();
  if (old.length) await db.deleteFrom('sso_claims').where('id', 'in', old.map((r) => r.id)).execute();
}

export function flows(ctx: ServerPluginContext, config: SsoConfig, rp: RelyingParty) {
  const db = ctx.db as unknown as SsoDb;
  const people = identities(ctx, config);
  const secure = (c: Context<AppEnv>) => originOf(ctx, c).startsWith('https:');

  function say(c: Context<AppEnv>, said: Said, origin = originOf(ctx, c)): Response {
    const body = Buffer.from(JSON.stringify(said)).toString('base64url');
    setCookie(c, SAID_COOKIE, `${body}.${ctx.sign('sso-said', body)}`, { httpOnly: true, sameSite: 'Lax', secure: secure(c), path: COOKIE_PATH, maxAge: 300 });
    deleteCookie(c, FLOW_COOKIE, { path: COOKIE_PATH, secure: secure(c) });
    // Always this origin's page: nothing in the request chooses where the browser goes next.
    return c.redirect(`${origin}/?sso=done`, 302);
  }

  const refusedWith = (c: Context<AppEnv>, name: Said['name'], values: (string | number)[] = [], origin?: string) => say(c, { name, values }, origin);

  function sayMessage(c: Context<AppEnv>, message: Message, origin: string): Response {
    const name = message.code.slice('sso.'.length) as Said['name'];
    return say(c, { name, values: Object.values(message.params).map((v) => (typeof v === 'object' ? String(v) : v)) }, origin);
  }

  return {
    /** Redirects to the provider's login page, the flow kept in the database. */
    async start(c: Context<AppEnv>, provider: Provider, linkUserId: number | null): Promise<Response> {
      const address = ctx.clientAddress(c);
      await db.deleteFrom('sso_flows').where('expires_at', '<', ctx.now()).execute();
      const open = await db.selectFrom('sso_flows').select((eb) => eb.fn.countAll<number>().as('n')).where('address', '=', address).where('used_at', 'is', null).executeTakeFirstOrThrow();
      if (Number(open.n) >= FLOWS_PER_ADDRESS) {
        c.header('Retry-After', String(FLOW_MS / 1000));
        return ctx.refuse(c, 429, MESSAGES.tooManyFlows);
      }
      let configuration: client.Configuration;
      try {
        configuration = await rp.configuration(provider);
      } catch (err) {
        ctx.log.warn({ provider: provider.name, issuer: provider.issuer, error: why(err) }, 'sso discovery failed');
        return refusedWith(c, 'providerDown', [provider.name]);
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const binding = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const redirectUri = callbackUri(ctx, c);
      const now = ctx.now();
      await db
        .insertInto('sso_flows')
        .values({ state_hash: await sha256(state), provider: provider.name, binding_hash: await sha256(binding), verifier: ctx.secrets.seal(verifier), nonce, redirect_uri: redirectUri, address, link_user_id: linkUserId, created_at: now, expires_at: now + FLOW_MS, used_at: null })
        .execute();
      setCookie(c, FLOW_COOKIE, binding, { httpOnly: true, sameSite: 'Lax', secure: secure(c), path: COOKIE_PATH, maxAge: FLOW_MS / 1000 });
      const scopes = new Set(['openid', ...provider.scopes.split(/\s+/).filter(Boolean)]);
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: [...scopes].join(' '),
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      ctx.log.info({ provider: provider.name, redirectUri }, 'sso sign-on started');
      return c.redirect(url.href, 302);
    },

    /** The provider sends the browser back here with a code (or an error). */
    async callback(c: Context<AppEnv>, byName: (name: string) => Provider | undefined): Promise<Response> {
      const state = c.req.query('state') ?? '';
      const now = ctx.now();
      const row = state ? await db.selectFrom('sso_flows').selectAll().where('state_hash', '=', await sha256(state)).executeTakeFirst() : undefined;
      // Single use, across instances: the one update that marks it used wins.
      const taken = row && row.expires_at > now && row.used_at === null ? await db.updateTable('sso_flows').set({ used_at: now }).where('state_hash', '=', row.state_hash).where('used_at', 'is', null).executeTakeFirst() : undefined;
      if (!row || !taken || Number(taken.numUpdatedRows) !== 1) {
        // A provider sending back to another address than the one the flow began at lands here too.
        ctx.log.warn({ state: state ? 'unknown, expired or used' : 'missing', redirectUri: callbackUri(ctx, c), hint: 'if sign-ons keep failing here, check the redirect URI registered at the provider' }, 'sso callback refused');
        return refusedWith(c, 'flowUnknown');
      }
      // Back to the origin the flow began at, whatever the callback's request says.
      const origin = new URL(row.redirect_uri).origin;
      const binding = getCookie(c, FLOW_COOKIE) ?? '';
      if ((await sha256(binding)) !== row.binding_hash) {
        ctx.log.warn({ provider: row.provider }, 'sso callback from another browser than the one that began it');
        return refusedWith(c, 'otherBrowser', [], origin);
      }
      const provider = byName(row.provider);
      if (!provider) return refusedWith(c, 'flowUnknown', [], origin);
      const providerError = c.req.query('error');
      if (providerError) {
        const description = c.req.query('error_description') ?? '';
        ctx.log.warn({ provider: provider.name, providerError, providerDescription: description }, 'sso provider refused the sign-on');
        if (/redirect_uri/i.test(description)) return refusedWith(c, 'redirectRefused', [provider.name, row.redirect_uri], origin);
        return refusedWith(c, 'providerError', [provider.name, providerError.slice(0, 100)], origin);
      }
      let claims: Claims;
      try {
        const configuration = await rp.configuration(provider);
        // The URL the provider was told to come back to, with what it added (behind a proxy the request's own URL may differ).
        const current = new URL(row.redirect_uri);
        current.search = new URL(c.req.url).search;
        const tokens = await client.authorizationCodeGrant(configuration, current, {
          pkceCodeVerifier: ctx.secrets.open(row.verifier),
          expectedState: state,
          expectedNonce: row.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims() as unknown as Claims;
      } catch (err) {
        const { said, log } = explainFailure(err, provider, row.redirect_uri);
        ctx.log.warn(log, 'sso sign-on failed');
        return sayMessage(c, said, origin);
      }
      const resolved = await people.resolve(c, provider, claims, row.link_user_id);
      if ('refused' in resolved) {
        await keepClaims(ctx, provider, claims, null, resolved.outcome);
        ctx.log.warn({ provider: provider.name, subject: claims.sub, outcome: resolved.outcome }, 'sso sign-on refused');
        return sayMessage(c, resolved.refused, origin);
      }
      const { user } = resolved;
      await people.applyRules(c, provider, claims, user);
      await keepClaims(ctx, provider, claims, user.username, row.link_user_id !== null ? 'linked' : 'loggedIn');
      if (row.link_user_id !== null) return refusedWith(c, 'linked', [provider.name, String(claims.email ?? claims.sub)], origin);
      const previous = c.get('token');
      if (previous) await ctx.accounts.revokeToken(previous);
      const { token, expiresAt } = await ctx.accounts.createLoginToken(user.id, LOGIN_MS);
      ctx.setLoginCookie(c, token, expiresAt);
      await ctx.sessions.adopt(c, user);
      ctx.log.info({ username: user.username, provider: provider.name }, 'login by sign-on');
      return refusedWith(c, 'loggedIn', [user.username, provider.name], origin);
    },

    /** What the last flow of this browser came to, said once. */
    said(c: Context<AppEnv>): Said | undefined {
      const value = getCookie(c, SAID_COOKIE);
      deleteCookie(c, SAID_COOKIE, { path: COOKIE_PATH, secure: secure(c) });
      const [body = '', signature = ''] = (value ?? '').split('.');
      if (!body || !ctx.verify(signature, 'sso-said', body)) return undefined;
      try {
        const said = JSON.parse(Buffer.from(body, 'base64url').toString()) as Said;
        return said.name in MESSAGES ? said : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
