// What the node commands share: the typed API, the active node (the `node` setting), the
// server's lists and a node's details.
import { ApiError, PlatformRef, send, typedClient, type PluginContext, type SettingsStore } from '../../../../src/core/index.ts';
import type { NodeRoutes } from '../../server/index.ts';
import type { NodeLists, PublicNode } from '../rules.ts';

const EMPTY: NodeLists = { user_nodes: [], group_nodes: [], system_nodes: [] };

export function nodeAccess(ctx: PluginContext) {
  const api = typedClient<NodeRoutes>(ctx.services.get(PlatformRef).api).api.node;
  const active = (settings: SettingsStore) => settings.get<string>('node');

  const lists = async (): Promise<NodeLists> => {
    try {
      return (await send(api.list.$get())).result;
    } catch {
      return EMPTY;
    }
  };

  /** One node as the server shows it, or undefined for 'Node not found.' (404). */
  const details = async (name: string): Promise<PublicNode | undefined> => {
    try {
      return (await send(api[':name'].$get({ param: { name: encodeURIComponent(name) } }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  return { api, active, lists, details };
}

export type NodeAccess = ReturnType<typeof nodeAccess>;
