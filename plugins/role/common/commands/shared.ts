// What the role commands share: the typed API, the server's lists, finding a role, making one
// active (which resets memory) and showing one.
import { ApiError, listingMustSay, PlatformRef, resetSession, send, text, typedClient, type Output, type PluginContext, type SettingsStore, type Translate } from '../../../../src/core/index.ts';
import type { RoleRoutes } from '../../server/index.ts';
import type { PublicRole, RoleLists } from '../rules.ts';

const EMPTY: RoleLists = { user_roles: [], system_roles: [] };

/** Spec part 4: a role use or reset resets memory. */
export const activate = (settings: SettingsStore, name: string) => {
  settings.set('role', name);
  resetSession(settings);
};

export const showRole = (c: { t: Translate }, role: PublicRole): Output[] => [text(c.t('msg.role', { name: role.name })), text(`${c.t('msg.prompt')} ${role.prompt}`)];

export function roleAccess(ctx: PluginContext) {
  const api = typedClient<RoleRoutes>(ctx.services.get(PlatformRef).api).api.role;

  /**
   * The server's lists; a failure gives empty lists, except for `:role ls` (`strict`) when the
   * server cannot be reached at all ('You are offline.' rather than 'No role found.') or refuses
   * (the plus plan's gate says why).
   */
  const lists = async (strict = false): Promise<RoleLists> => {
    try {
      return (await send(api.list.$get())).result;
    } catch (err) {
      if (strict && listingMustSay(err)) throw err;
      return EMPTY;
    }
  };

  /** One role (the user's own first, then the system's), or undefined when it does not exist. */
  const find = async (name: string): Promise<PublicRole | undefined> => {
    try {
      return (await send(api[':name'].$get({ param: { name: encodeURIComponent(name) } }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  return { api, lists, find };
}

export type RoleAccess = ReturnType<typeof roleAccess>;
