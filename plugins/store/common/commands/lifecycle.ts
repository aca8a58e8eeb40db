// A store's life on the server: `:store init` and `:store data reset` (on the store they name, or
// the one active store), and `:store del` (which also leaves the active list).
import { saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import type { StoreAccess } from './shared.ts';

export const initStore =
  ({ api, named }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = named(c);
      if (typeof name !== 'string') return name;
      const answer = await send(api().init.$post({ json: { name } }));
      return text(saidIn(answer));
    });

export const resetStoreData =
  ({ api, named }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = named(c);
      if (typeof name !== 'string') return name;
      const answer = await send(api()['data-reset'].$post({ json: { name } }));
      return text(saidIn(answer));
    });

export const deleteStore =
  ({ api, active, setActive }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api().delete.$post({ json: { name } }));
      // A deleted store is removed from the active list.
      setActive(c, active(c).filter((n) => n !== name));
      return text(saidIn(answer));
    });
