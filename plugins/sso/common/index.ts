// The sso commands, on the typed client of the sso routes. Signing on in the browser is a
// navigation: it goes to the provider and comes back to the page, which asks what came of it.
// The terminal signs on with the device authorization grant (device.ts).
import { effect, error, PlatformRef, send, text, typedClient, withApiErrors, type CommandHandler, type Output, type PluginContext } from '../../../src/core/index.ts';
import type { SsoRoutes } from '../server/index.ts';
import { deviceLogin } from './device.ts';
import { landed } from './landed.ts';
import { MESSAGES } from './messages.ts';

export { MESSAGES };

export function ssoAccess(ctx: PluginContext) {
  return typedClient<SsoRoutes>(ctx.services.get(PlatformRef).api).api.sso;
}
export type SsoApi = ReturnType<typeof ssoAccess>;

/** The start route of a provider, as the browser navigates to it. */
const startUrl = (provider: string | undefined, link: boolean) => {
  const query = new URLSearchParams({ ...(provider ? { provider } : {}), ...(link ? { link: '1' } : {}) });
  return `/api/sso/start${query.size ? `?${query}` : ''}`;
};

/** Checks the provider by the server's list first, so a typo is said here rather than on a blank page. */
const goTo =
  (ctx: PluginContext, api: SsoApi, link: boolean): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      // The provider's page needs a browser: the terminal signs on with the device grant.
      const terminal = c.env !== 'browser';
      if (terminal && link) return error(MESSAGES.browserOnly);
      const { providers } = (await send(api.providers.$get())).result;
      const wanted = c.args.provider?.toLowerCase();
      const names = providers.map((p) => p.name);
      if (providers.length === 0) return error(MESSAGES.noProviders);
      if (!wanted && providers.length > 1) return error(MESSAGES.whichProvider(names.join(', '), names[0]!));
      if (wanted && !names.includes(wanted)) return error(MESSAGES.unknownProvider(wanted, names.join(', ')));
      const name = wanted ?? names[0]!;
      if (terminal) return deviceLogin(ctx, api, c, name);
      return [text(MESSAGES.going(name)), effect({ type: 'open', url: startUrl(name, link), blank: false })];
    });

function providersLine(c: Parameters<CommandHandler>[0], providers: { name: string; issuer: string }[], redirectUri: string | null): Output[] {
  if (providers.length === 0) return [text(MESSAGES.noProviders)];
  const table: Output = { kind: 'table', columns: [c.t('info.provider'), c.t('info.issuer')], rows: providers.map((p) => [p.name, p.issuer]) };
  // Root's: the return address the operator registers (a provider refusing it shows only its own page).
  return redirectUri ? [table, text(MESSAGES.redirectUri(redirectUri))] : [table];
}

export function activateSso(ctx: PluginContext): void {
  const api = ssoAccess(ctx);
  ctx.handle('login.sso', goTo(ctx, api, false));
  ctx.handle('user.sso.link', goTo(ctx, api, true));
  ctx.handle('sso', (c) =>
    withApiErrors(async () => {
      const { providers, redirectUri } = (await send(api.providers.$get())).result;
      return providersLine(c, providers, redirectUri);
    }),
  );
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
  // The Documentation page names the providers this server has (none: no line).
  ctx.docs(async () => {
    const { providers } = (await send(api.providers.$get())).result;
    if (!providers.length) return {};
    return { features: [{ key: 'docs.features.providers', order: 108, more: true, vars: { providers: providers.map((p) => p.name).join(', ') } }] };
  });
  void landed(ctx, api);
}
