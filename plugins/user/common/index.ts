// Handlers of the user commands, on top of the API client. They run in the browser, the CLI
// and the tests; the server decides everything (see ../server/index.ts).
import {
  ApiError,
  call as send,
  callApi,
  effect,
  error,
  formatRoleExpiry,
  PlatformRef,
  resetSession,
  GROUP_PASSWORD_KEY,
  keptSettings,
  saidIn,
  text,
  typedClient,
  USER_SETTING_MESSAGES,
  type CommandContext,
  type Output,
  type PluginContext,
  type PublicUser,
} from '../../../src/core/index.ts';
import type { UserRoutes } from '../server/index.ts';
import { localSync } from './sync.ts';
import { parseLoginOptions } from './rules.ts';

const call = callApi;

export function userTable(c: CommandContext, user: PublicUser): Output {
  const rows: [string, string][] = [
    [c.t('info.username'), user.username],
    [c.t('info.email'), `${user.email}${user.email_verified ? '' : ` (${c.t('info.unverified')})`}`],
    [c.t('info.role'), user.role],
    [c.t('info.expires'), user.role_expires_at == null ? c.t('info.unlimited') : formatRoleExpiry(user.role_expires_at)],
    [c.t('info.balance'), `$${user.balance}`],
    ...(user.usage !== undefined ? [[c.t('info.usage'), `$${user.usage}`] as [string, string]] : []),
    [c.t('info.groups'), user.groups.join(', ')],
    [c.t('info.groupPassword'), String(user.settings.groupPassword)],
    [c.t('info.created'), new Date(user.created_at).toISOString().slice(0, 10)],
  ];
  return { kind: 'table', columns: [c.t('info.item'), c.t('info.value')], rows };
}

export function activateUser(ctx: PluginContext): void {
  const { user: api, invite } = typedClient<UserRoutes>(ctx.services.get(PlatformRef).api).api;
  const sync = localSync(ctx.settings, api);
  ctx.onDispose(sync.dispose);
  void sync.checkAtStart();

  ctx.completion('userSettingKey', () => [...keptSettings(ctx.settings.specs()).map((s) => s.key), GROUP_PASSWORD_KEY]);

  ctx.handle('login', (c) =>
    call(async () => {
      const options = parseLoginOptions(c.args.options);
      if ('error' in options) return error(options.error);
      const wasLoggedIn = !!c.settings.get<string>('user');
      const answer = await send(
        api.login.$post({ json: { username: c.args.username ?? '', password: c.args.password ?? '', expiresIn: options.expiresIn } }),
      );
      const user = answer.result.user;
      sync.loggedIn(user);
      // Logging in again as the same user resets the session too (spec part 4).
      if (wasLoggedIn) resetSession(c.settings);
      // The server's words, by code: said in the account's language, which the login just set.
      return text(saidIn(answer));
    }),
  );

  ctx.handle('logout', (c) =>
    call(async () => {
      if (!c.settings.get<string>('user')) {
        // Also clears a cookie the browser may still hold.
        await send(api.logout.$post({ json: {} })).catch(() => undefined);
        return error(c.t('msg.notLoggedIn'));
      }
      await send(api.logout.$post({ json: { username: c.settings.get<string>('user') } })).catch((e: unknown) => {
        if (!(e instanceof ApiError) || e.status !== 401) throw e;
      });
      sync.loggedOut();
      return text(c.t('msg.loggedOut'));
    }),
  );

  ctx.handle('user', (c) =>
    call(async () => {
      const user = (await send(api.info.$get())).result;
      sync.apply(user.settings);
      return userTable(c, user);
    }),
  );

  ctx.handle('user.add', (c) =>
    call(async () => {
      const signingUp = !c.settings.get<string>('user');
      const answer = await send(
        api.add.$post({
          json: {
            username: c.args.username ?? '',
            email: c.args.email ?? '',
            ...(c.args.password ? { password: c.args.password } : {}),
            settings: JSON.stringify(sync.localSettings()),
          },
        }),
      );
      // Someone who signs up is not logged in yet: the next step, on a line below (it was
      // 'Please login.' at the next command, with no word of how).
      if (!signingUp) return text(saidIn(answer));
      return [text(saidIn(answer)), effect({ type: 'notice', text: c.t('msg.loginNext', { username: answer.result.user.username }) })];
    }),
  );

  // The Settings page's subscribe and unsubscribe: the account's own address, through the API.
  ctx.setter('emailSubscription', (value, c) =>
    call(async () => {
      const on = value.trim() === 'on';
      if (!on && value.trim() !== 'off') return error(USER_SETTING_MESSAGES.settingOneOf('on, off'));
      const me = (await send(api.info.$get())).result;
      const answer = await send(api.update['email-subscription'].$get({ query: { email: me.email, email_subscription: on ? '1' : '0' } }));
      c.settings.set('emailSubscription', on ? 'on' : 'off');
      return text(saidIn(answer));
    }),
  );

  ctx.handle('user.set.pass', (c) =>
    call(async () => text(saidIn(await send(api.update.password.$post({ json: { password: c.args.password ?? '' } }))))),
  );
  ctx.handle('user.set.email', (c) => call(async () => text(saidIn(await send(api.update.email.$post({ json: { email: c.args.email ?? '' } }))))));
  ctx.handle('user.set', (c) =>
    call(async () => {
      const answer = await send(api.update.setting.$post({ json: { key: c.args.key ?? '', value: c.args.value ?? '' } }));
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    }),
  );
  ctx.handle('user.reset', (c) =>
    call(async () => {
      const answer = await send(api['reset-setting'].$post({ json: { key: c.args.key ?? '' } }));
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    }),
  );
  ctx.handle('user.reset.settings', () =>
    call(async () => {
      const answer = await send(api['reset-settings'].$post());
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    }),
  );
  ctx.handle('user.reset.pass', (c) =>
    call(async () => text(saidIn(await send(api['reset-password'].$post({ json: { username: c.args.username ?? '', email: c.args.email ?? '' } }))))),
  );
  ctx.handle('user.del', (c) =>
    call(async () => {
      const answer = await send(api.delete.$post({ json: { username: c.args.username ?? '' } }));
      if ((c.args.username ?? '').toLowerCase() === c.settings.get<string>('user')) sync.loggedOut();
      return text(saidIn(answer));
    }),
  );
  ctx.handle('user.join', (c) =>
    call(async () => text(saidIn(await send(api.group.join.$post({ json: { group: c.args.group ?? '', password: c.args.password ?? '' } }))))),
  );
  // hono's client does not encode path parameters.
  ctx.handle('invite', (c) => call(async () => text(saidIn(await send(invite[':email'].$get({ param: { email: encodeURIComponent(c.args.email ?? '') } }))))));
  ctx.handle('user.leave', (c) => call(async () => text(saidIn(await send(api.group.leave.$post({ json: { group: c.args.group ?? '' } }))))));
}
