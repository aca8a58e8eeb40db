// Single sign-on with the team's identity provider (issue 38): OpenID Connect through
// openid-client, several providers, the flow in the database, shellchat's own login at the end.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, Message, ServerPluginContext, ServerPluginModule } from '../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../src/core/serverMessages.ts';
import { MESSAGES } from '../common/messages.ts';
import ssoEnv, { type Provider } from './env.ts';
import { CALLBACK_PATH, callbackUri, flows, type Said } from './flow.ts';
import { relyingParty } from './oidc.ts';
import { localPasswordGates } from './gates.ts';
import { devices } from './device.ts';
import { ssoDevicesMigration, ssoTablesMigration, type SsoDb } from './table.ts';

const startQuery = z.object({ provider: z.string().max(64).optional(), link: z.enum(['1']).optional() });
const deviceBody = z.object({ provider: z.string().max(64).optional() });
const pollBody = z.object({ handle: z.string().min(1).max(64) });

/** A message of the catalogue from its name and values (what the outcome cookie carries). */
function messageOf(said: Said): Message {
  const entry = MESSAGES[said.name] as Message | ((...values: (string | number)[]) => Message);
  return typeof entry === 'function' ? entry(...said.values) : entry;
}

export function ssoRoutes(ctx: ServerPluginContext) {
  const config = ssoEnv.of(ctx);
  const db = ctx.db as unknown as SsoDb;
  const rp = relyingParty(config);
  const flow = flows(ctx, config, rp);
  const device = devices(ctx, config, rp);
  const byName = (name: string) => config.providers.find((p) => p.name === name);
  const names = () => config.providers.map((p) => p.name).join(', ');
  /** The provider a start names, or why not. */
  const choose = (name: string | undefined): Provider | Message => {
    if (config.providers.length === 0) return MESSAGES.noProviders;
    if (!name) return config.providers.length === 1 ? config.providers[0]! : MESSAGES.whichProvider(names(), config.providers[0]!.name);
    return byName(name.toLowerCase()) ?? MESSAGES.unknownProvider(name, names());
  };
  const refuseChoice = (c: Context<AppEnv>, chosen: Message) => ctx.refuse(c, chosen === MESSAGES.noProviders ? 404 : 400, chosen);

  return new Hono<AppEnv>()
    .get('/api/sso/providers', (c) => {
      // Root registers the client at the provider: the exact return address, as this server names it.
      const redirectUri = c.get('user')?.username === 'root' && config.providers.length ? callbackUri(ctx, c) : null;
      return ctx.answer(c, { providers: config.providers.map((p) => ({ name: p.name, issuer: p.issuer })), redirectUri });
    })
    .get('/api/sso/start', ctx.sameSiteOnly, ctx.validate('query', startQuery), async (c) => {
      const { provider, link } = c.req.valid('query');
      const chosen = choose(provider);
      if ('code' in chosen) return refuseChoice(c, chosen);
      const user = c.get('user');
      if (link && !user) return ctx.refuse(c, 401, SERVER_MESSAGES.pleaseLogin);
      return flow.start(c, chosen, link && user ? user.id : null);
    })
    .post('/api/sso/device', ctx.validate('json', deviceBody), async (c) => {
      const chosen = choose(c.req.valid('json').provider);
      if ('code' in chosen) return refuseChoice(c, chosen);
      return device.start(c, chosen);
    })
    .post('/api/sso/device/poll', ctx.validate('json', pollBody), (c) => device.poll(c, c.req.valid('json').handle, byName))
    .get('/api/sso/callback', (c) => flow.callback(c, byName))
    .get('/api/sso/outcome', async (c) => {
      const said = flow.said(c);
      if (!said) return ctx.refuse(c, 404, MESSAGES.noOutcome);
      const user = c.get('user');
      if ((said.name === 'loggedIn' || said.name === 'linked') && user) return ctx.answer(c, { user: await ctx.accounts.toPublic(user) }, messageOf(said));
      return ctx.refuse(c, 401, messageOf(said));
    })
    .get('/api/sso/identity', ctx.requireUser, async (c) => {
      const rows = await db.selectFrom('sso_identities').select(['provider', 'email', 'created_at', 'last_login_at']).where('user_id', '=', c.get('user')!.id).orderBy('provider').execute();
      return ctx.answer(c, { identities: rows.map((r) => ({ provider: r.provider, email: r.email, linked_at: Number(r.created_at), last_login_at: Number(r.last_login_at) })) });
    })
    .get('/api/sso/test', ctx.requireUser, async (c) => {
      if (c.get('user')!.username !== 'root') return ctx.refuse(c, 403, MESSAGES.rootOnly);
      const rows = await db.selectFrom('sso_claims').selectAll().orderBy('id', 'desc').limit(5).execute();
      return ctx.answer(c, {
        logins: rows.map((r) => ({ provider: r.provider, subject: r.subject, username: r.username, outcome: r.outcome, at: Number(r.created_at), claims: JSON.parse(r.claims) as Record<string, unknown> })),
      });
    });
}

export type SsoRoutes = ReturnType<typeof ssoRoutes>;

const module: ServerPluginModule = {
  migrations: { '0001_sso_tables': ssoTablesMigration, '0002_sso_devices': ssoDevicesMigration },
  routes: ssoRoutes,
  register: (ctx: ServerPluginContext) => {
    const config = ssoEnv.of(ctx);
    localPasswordGates(ctx, config);
    // A provider that refuses the return address shows its own page: the operator finds it here.
    if (config.providers.length) {
      const redirectUri = ctx.publicUrl ? `${new URL(ctx.publicUrl).origin}${CALLBACK_PATH}` : `<the address people reach shellchat at>${CALLBACK_PATH} (set PUBLIC_URL to name it)`;
      ctx.log.info({ providers: config.providers.map((p) => p.name), redirectUri }, 'sso: register this redirect URI at each identity provider');
    }
    const db = ctx.db as unknown as SsoDb;
    // `:user` shows the identities linked to the account.
    ctx.accounts.describe(async (user) => {
      const rows = await db.selectFrom('sso_identities').select(['provider', 'email']).where('user_id', '=', user.id).orderBy('provider').execute();
      return rows.map((r) => ({ ns: 'sso', label: 'info.identity', value: `${r.provider} (${r.email})` }));
    });
    ctx.accounts.onDelete(async (userId) => {
      await db.deleteFrom('sso_identities').where('user_id', '=', userId).execute();
    });
  },
};
export default module;
