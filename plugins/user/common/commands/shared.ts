// What the user commands share: the typed account API (and the invitation route) and the sync
// of the local settings with the account's.
import { PlatformRef, typedClient, type PluginContext } from '../../../../src/core/index.ts';
import type { UserRoutes } from '../../server/index.ts';
import { localSync } from '../sync.ts';

export function userAccess(ctx: PluginContext) {
  const { user: api, invite } = typedClient<UserRoutes>(ctx.services.get(PlatformRef).api).api;
  return { api, invite, sync: localSync(ctx.settings, api) };
}

export type UserAccess = ReturnType<typeof userAccess>;
