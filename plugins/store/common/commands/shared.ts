// What the store commands share: the typed API, the active stores (the local `stores` setting), the
// server's lists and a store's details, and which store a command is about.
import { ApiError, error, listingMustSay, PlatformRef, send, text, typedClient, type CommandContext, type Output, type PluginContext } from '../../../../src/core/index.ts';
import type { StoreRoutes } from '../../server/index.ts';
import { MESSAGES } from '../messages.ts';
import { activeList, type PublicStore, type StoreLists } from '../rules.ts';

const EMPTY: StoreLists = { user_stores: [], group_stores: [], system_stores: [] };

/** What the store commands share: the API, the active stores, the server's lists and details. */
export function storeAccess(ctx: PluginContext) {
  const api = () => typedClient<StoreRoutes>(ctx.services.get(PlatformRef).api).api.store;
  const active = (c: CommandContext) => activeList(c.settings.get<string>('stores'));
  const setActive = (c: CommandContext, names: string[]) => c.settings.set('stores', names.join(','));
  /**
   * The server's lists; a failure gives empty lists, except for `:store ls` (`strict`) when
   * the server cannot be reached at all ('You are offline.' rather than 'No available store found.')
   * or refuses (the plus plan's gate says why).
   */
  const lists = async (strict = false): Promise<StoreLists> => {
    try {
      return (await send(api().list.$get())).result;
    } catch (err) {
      if (strict && listingMustSay(err)) throw err;
      return EMPTY;
    }
  };
  const details = async (name: string, verbose = false): Promise<PublicStore | undefined> => {
    try {
      return (await send(api()[':name'].$get({ param: { name: encodeURIComponent(name) }, query: verbose ? { verbose: 'true' } : {} }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };
  /** The one active store, or the error line of spec part 5. */
  const single = (c: CommandContext): string | Output => {
    const names = active(c);
    if (names.length === 0) return error(MESSAGES.noStore);
    if (names.length > 1) return error(MESSAGES.multiple);
    return names[0]!;
  };
  /** The store a command names, or else the one active store. */
  const named = (c: CommandContext): string | Output => c.args.name ?? single(c);

  /**
   * Active stores this user can no longer use (a group left, a store given away or deleted
   * elsewhere) leave the active list, with a line that says so.
   */
  const pruned = async (c: CommandContext): Promise<Output[]> => {
    const names = active(c);
    if (!names.length) return [];
    const l = await lists();
    const usable = new Set([...l.user_stores, ...l.group_stores, ...l.system_stores].map((s) => s.name));
    const gone = names.filter((n) => !usable.has(n));
    if (!gone.length) return [];
    setActive(c, names.filter((n) => usable.has(n)));
    return [text(c.t('msg.unusable', { names: gone.join(', ') }))];
  };

  return { api, active, setActive, lists, details, single, named, pruned };
}

export type StoreAccess = ReturnType<typeof storeAccess>;
