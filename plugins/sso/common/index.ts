// The sso commands, on the typed client of the sso routes. Signing on is a navigation: the
// browser goes to the provider and comes back to the page, which asks what came of it.
import { effect, error, keptSettings, PlatformRef, saidIn, send, text, typedClient, withApiErrors, type CommandHandler, type Output, type PluginContext, type PublicUser } from '../../../src/core/index.ts';
import type { SsoRoutes } from '../server/index.ts';
import { MESSAGES } from './messages.ts';

export { MESSAGES };

export function ssoAccess(ctx: PluginContext) {
  return typedClient<SsoRoutes>(ctx.services.get(PlatformRef).api).api.sso;
}
type SsoApi = ReturnType<typeof ssoAccess>;

/** The start route of a provider, as the browser navigates to it. */
const startUrl = (provider: string | undefined, link: boolean) => {
  const query = new URLSearchParams({ ...(provider ? { provider } : {}), ...(link ? { link: '1' } : {}) });
  return `/api/sso/start${query.size ? `?${query}` : ''}`;
};

/** Checks the provider by the server's list first, so a typo is said here rather than on a blank page. */
const goTo =
  (api: SsoApi, link: boolean): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      // The provider's page needs a browser: the terminal client logs in another way.
      if (c.env !== 'browser') return error(MESSAGES.browserOnly);
      const { providers } = (await send(api.providers.$get())).result;
      const wanted = c.args.provider?.toLowerCase();
      const names = providers.map((p) => p.name);
      if (providers.length === 0) return error(MESSAGES.noProviders);
      if (!wanted && providers.length > 1) return error(MESSAGES.whichProvider(names.join(', '), names[0]!));
      if (wanted && !names.includes(wanted)) return error(MESSAGES.unknownProvider(wanted, names.join(', ')));
      const name = wanted ?? names[0]!;
      return [text(MESSAGES.going(name)), effect({ type: 'open', url: startUrl(name, link), blank: false })];
    });

function providersLine(c: Parameters<CommandHandler>[0], providers: { name: string; issuer: string }[]): Output {
  if (providers.length === 0) return text(MESSAGES.noProviders);
  return { kind: 'table', columns: [c.t('info.provider'), c.t('info.issuer')], rows: providers.map((p) => [p.name, p.issuer]) };
}

/** Back from the provider (`?sso=done`): the account the browser is now logged in to, or why not. */
export async function landed(ctx: PluginContext, api: SsoApi): Promise<void> {
  const location = globalThis.location as Location | undefined;
  if (!location || new URLSearchParams(location.search).get('sso') !== 'done') return;
  globalThis.history?.replaceState(null, '', location.pathname + location.hash);
  const outputs = await withApiErrors(async (): Promise<Output[]> => {
    const answer = await send(api.outcome.$get());
    const user = answer.result.user as PublicUser;
    ctx.settings.set('user', user.username);
    // The account's settings, as the user plugin's login applies them.
    for (const { key } of keptSettings(ctx.settings.specs())) if (key in user.settings) ctx.settings.set(key, user.settings[key] as never);
    return [text(saidIn(answer))];
  });
  ctx.events.emit('output', Array.isArray(outputs) ? outputs : [outputs]);
}

export function activateSso(ctx: PluginContext): void {
  const api = ssoAccess(ctx);
  ctx.handle('login.sso', goTo(api, false));
  ctx.handle('user.sso.link', goTo(api, true));
  ctx.handle('sso', (c) => withApiErrors(async () => providersLine(c, (await send(api.providers.$get())).result.providers)));
  ctx.handle('user.sso', (c) =>
    withApiErrors(async () => {
      const { identities } = (await send(api.identity.$get())).result;
      if (identities.length === 0) return text(MESSAGES.noIdentity);
      return {
        kind: 'table',
        columns: [c.t('info.provider'), c.t('info.email'), c.t('info.linked'), c.t('info.lastLogin')],
        rows: identities.map((i) => [i.provider, i.email, new Date(i.linked_at).toISOString().slice(0, 10), new Date(i.last_login_at).toISOString().slice(0, 16).replace('T', ' ')]),
      };
    }),
  );
  ctx.handle('sso.test', (c) =>
    withApiErrors(async () => {
      const { logins } = (await send(api.test.$get())).result;
      if (logins.length === 0) return text(MESSAGES.noLogins);
      const blocks = logins.map((l) => `**${l.provider}** · ${l.username ?? '—'} · ${l.outcome} · ${new Date(l.at).toISOString()}\n\n\`\`\`json\n${JSON.stringify(l.claims, null, 2)}\n\`\`\``);
      return { kind: 'markdown', text: blocks.join('\n\n') };
    }),
  );
  void landed(ctx, api);
}
