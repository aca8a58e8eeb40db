// Local and server settings (spec part 4): login loads the user's settings into local state;
// logout clears user, role, stores and node and resets the session; corrupt user data clears
// the local user and the cookie; while logged in, synced local changes go to the server.
import {
  ApiError,
  send,
  formatSettingValue,
  keptSettings,
  pushedSettings,
  resetSession,
  type PublicUser,
  type SettingsStore,
  type typedClient,
  type UserSettings,
} from '../../../src/core/index.ts';
import type { UserRoutes } from '../server/index.ts';

/** The typed client of the user routes (/api/user/*). */
export type UserApi = ReturnType<typeof typedClient<UserRoutes>>['api']['user'];

/** Local keys cleared on logout, where installed plugins declare them. */
const CLEARED_ON_LOGOUT = ['role', 'stores', 'node'];

export function localSync(settings: SettingsStore, api: UserApi) {
  const declared = (key: string) => settings.specs().some((s) => s.key === key);
  // The manifests say which settings the server keeps (`sync`) and which a change sends (`sync: true`).
  const pushed = (key: string) => pushedSettings(settings.specs()).some((s) => s.key === key);
  let applying = false;
  /** Keys set here while the start-up check is on its way: its answer is older than them. */
  let setDuringCheck: Set<string> | undefined;

  const apply = (server: Partial<UserSettings>, newer: ReadonlySet<string> = new Set()) => {
    applying = true;
    try {
      for (const { key } of keptSettings(settings.specs())) {
        if (key in server && !newer.has(key)) settings.set(key, server[key] as never);
      }
    } finally {
      applying = false;
    }
  };

  /** The account's e-mail subscription, shown on the Settings page. */
  const subscription = (user: PublicUser) => {
    if (declared('emailSubscription')) settings.set('emailSubscription', user.email_subscription ? 'on' : 'off');
  };

  const clearLocalUser = () => {
    settings.set('user', '');
    for (const key of CLEARED_ON_LOGOUT) if (declared(key)) settings.reset(key);
  };

  // Spec part 4: a login over another user's, a logout and an account deletion reset the
  // session; a login from anonymous keeps it (the server gives it to the account). The user
  // is a device setting, so this also runs in every other tab of the browser, whose next
  // question would otherwise go into the previous user's session.
  let lastUser = settings.get<string>('user');
  const stopUser = settings.onChange('user', (_key, value) => {
    const next = typeof value === 'string' ? value : '';
    if (lastUser && next !== lastUser) resetSession(settings);
    lastUser = next;
  });

  const stop = settings.onChange('*', (key, value) => {
    if (applying) return;
    setDuringCheck?.add(key);
    if (!settings.get<string>('user')) return;
    if (!pushed(key)) return;
    void send(api.update.setting.$post({ json: { key, value: formatSettingValue(value) } })).catch(() => undefined);
  });

  return {
    apply,
    loggedIn(user: PublicUser) {
      settings.set('user', user.username);
      apply(user.settings);
      subscription(user);
    },
    loggedOut: clearLocalUser,
    /** The local values of the synced settings, sent at sign-up. */
    localSettings(): Record<string, string> {
      return Object.fromEntries(pushedSettings(settings.specs()).map(({ key }) => [key, formatSettingValue(settings.get(key))]));
    },
    /** At start: a local user the server does not know (or corrupt data) is cleared, with the cookie. */
    async checkAtStart(): Promise<void> {
      if (!settings.get<string>('user')) return;
      setDuringCheck = new Set();
      try {
        // Checked as it comes: corrupt data clears the local user.
        const user = (await send(api.info.$get())).result as PublicUser | undefined;
        if (!user?.username || !user.settings || typeof user.settings !== 'object') {
          clearLocalUser();
          await send(api.logout.$post({ json: {} })).catch(() => undefined);
          return;
        }
        settings.set('user', user.username);
        // A choice made meanwhile (`:lang use` typed as the page opens) went to the server too.
        apply(user.settings, setDuringCheck);
        subscription(user);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) clearLocalUser();
      } finally {
        setDuringCheck = undefined;
      }
    },
    dispose() {
      stop();
      stopUser();
    },
  };
}
