// Handlers of the user commands, on top of the API client. They run in the browser, the CLI
// and the tests; the server decides everything (see ../server/index.ts).
import {
  ApiError,
  formatRoleExpiry,
  PlatformRef,
  resetSession,
  SYNCED_LOCAL_SETTINGS,
  USER_SETTING_MESSAGES,
  text,
  error,
  type ApiClient,
  type CommandContext,
  type HandlerResult,
  type Output,
  type PluginContext,
  type PublicUser,
  type SettingsStore,
  callApi,
} from '../../../src/core/index.ts';
import { localSync } from './sync.ts';
import { MESSAGES, parseLoginOptions } from './rules.ts';

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
  // Its rule messages (and its server's) in the interface's language.
  ctx.messages(MESSAGES);
  const platform = ctx.services.get(PlatformRef);
  const api: ApiClient = platform.api;
  const sync = localSync(ctx.settings, api);
  ctx.onDispose(sync.dispose);
  void sync.checkAtStart();

  ctx.completion('userSettingKey', () => [...SYNCED_LOCAL_SETTINGS, 'model', 'role', 'stores', 'node', 'groupPassword']);

  ctx.handle('login', (c) =>
    call(async () => {
      const options = parseLoginOptions(c.args.options);
      if ('error' in options) return error(options.error);
      const wasLoggedIn = !!c.settings.get<string>('user');
      const answer = await api.post<{ user: PublicUser }>('/api/user/login', {
        username: c.args.username,
        password: c.args.password,
        expiresIn: options.expiresIn,
      });
      const user = answer.result!.user;
      sync.loggedIn(user);
      // Logging in again as the same user resets the session too (spec part 4).
      if (wasLoggedIn) resetSession(c.settings);
      return text(c.t('msg.loggedIn', { username: user.username }));
    }),
  );

  ctx.handle('logout', (c) =>
    call(async () => {
      if (!c.settings.get<string>('user')) {
        // Also clears a cookie the browser may still hold.
        await api.post('/api/user/logout', {}).catch(() => undefined);
        return error(c.t('msg.notLoggedIn'));
      }
      await api.post('/api/user/logout', { username: c.settings.get<string>('user') }).catch((e: unknown) => {
        if (!(e instanceof ApiError) || e.status !== 401) throw e;
      });
      sync.loggedOut();
      return text(c.t('msg.loggedOut'));
    }),
  );

  ctx.handle('user', (c) =>
    call(async () => {
      const answer = await api.get<PublicUser>('/api/user/info');
      sync.apply(answer.result!.settings);
      return userTable(c, answer.result!);
    }),
  );

  ctx.handle('user.add', (c) =>
    call(async () => {
      const answer = await api.post('/api/user/add', {
        username: c.args.username,
        email: c.args.email,
        ...(c.args.password ? { password: c.args.password } : {}),
        settings: JSON.stringify(sync.localSettings()),
      });
      return text(answer.message!);
    }),
  );

  // The Settings page's subscribe and unsubscribe: the account's own address, through the API.
  ctx.setter('emailSubscription', (value, c) =>
    call(async () => {
      const on = value.trim() === 'on';
      if (!on && value.trim() !== 'off') return error(USER_SETTING_MESSAGES.settingOneOf('on, off'));
      const me = (await api.get<PublicUser>('/api/user/info')).result!;
      const answer = await api.get('/api/user/update/email-subscription', { email: me.email, email_subscription: on ? '1' : '0' });
      c.settings.set('emailSubscription', on ? 'on' : 'off');
      return text(answer.message!);
    }),
  );

  ctx.handle('user.set.pass', (c) => call(async () => text((await api.post('/api/user/update/password', { password: c.args.password })).message!)));
  ctx.handle('user.set.email', (c) => call(async () => text((await api.post('/api/user/update/email', { email: c.args.email })).message!)));
  ctx.handle('user.set', (c) =>
    call(async () => {
      const answer = await api.post<{ settings: PublicUser['settings'] }>('/api/user/update/setting', { key: c.args.key, value: c.args.value });
      sync.apply(answer.result!.settings);
      return text(answer.message!);
    }),
  );
  ctx.handle('user.reset', (c) =>
    call(async () => {
      const answer = await api.post<{ settings: PublicUser['settings'] }>('/api/user/reset-setting', { key: c.args.key });
      sync.apply(answer.result!.settings);
      return text(answer.message!);
    }),
  );
  ctx.handle('user.reset.settings', () =>
    call(async () => {
      const answer = await api.post<{ settings: PublicUser['settings'] }>('/api/user/reset-settings', {});
      sync.apply(answer.result!.settings);
      return text(answer.message!);
    }),
  );
  ctx.handle('user.reset.pass', (c) =>
    call(async () => text((await api.post('/api/user/reset-password', { username: c.args.username, email: c.args.email })).message!)),
  );
  ctx.handle('user.del', (c) =>
    call(async () => {
      const answer = await api.post('/api/user/delete', { username: c.args.username });
      if ((c.args.username ?? '').toLowerCase() === c.settings.get<string>('user')) sync.loggedOut();
      return text(answer.message!);
    }),
  );
  ctx.handle('user.join', (c) => call(async () => text((await api.post('/api/user/group/join', { group: c.args.group, password: c.args.password })).message!)));
  ctx.handle('invite', (c) => call(async () => text((await api.get(`/api/invite/${encodeURIComponent(c.args.email ?? '')}`)).message!)));
  ctx.handle('user.leave', (c) => call(async () => text((await api.post('/api/user/group/leave', { group: c.args.group })).message!)));
}


