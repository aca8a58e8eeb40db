// `:store [name]`: a store's details, or those of each active store.
import { error, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { StoreAccess } from './shared.ts';

export const showStore =
  ({ active, details, pruned }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      if (c.args.name !== undefined) {
        const found = await details(c.args.name, true);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const out: Output[] = await pruned(c);
      const names = active(c);
      if (!names.length) return [...out, error(MESSAGES.noStore)];
      for (const name of names) {
        const found = await details(name);
        out.push(found ? { kind: 'json', value: found } : error(`${MESSAGES.notFound} (${name})`));
      }
      return out;
    });
