// `:store set <key> "<value>"` (one setting of the active store, checked for its engine here
// first) and `:store set owner <owner>`.
import { error, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import type { StoreEngine } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { checkStoreSetting } from '../rules.ts';
import type { StoreAccess } from './shared.ts';

export const setStore =
  ({ api, single, details }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const found = await details(one);
      if (!found) return error(MESSAGES.notFound);
      const checked = checkStoreSetting(found.engine as StoreEngine, c.args.key ?? '', c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api().update[':name'].settings.$post({ param: { name: encodeURIComponent(one) }, json: { key: checked.key, value: checked.value } }));
      return text(saidIn(answer));
    });

export const setStoreOwner =
  ({ api, single }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const answer = await send(api().update[':name'].owner.$post({ param: { name: encodeURIComponent(one) }, json: { owner: c.args.owner ?? '' } }));
      return text(saidIn(answer));
    });
