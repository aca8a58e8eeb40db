// `:store search <text>`: searches the active stores (those no longer usable leave the list first).
import { error, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { StoreAccess } from './shared.ts';

export const searchStores =
  ({ api, active, pruned }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const note = await pruned(c);
      const names = active(c);
      if (!names.length) return [...note, error(MESSAGES.noStore)];
      const { result } = await send(api().search.$post({ json: { search: c.args.text ?? '', store: names.join(',') } }));
      const hits = result.hits;
      const errors = [...note, ...result.errors.map((e) => error(e))];
      if (!hits.length) return [...errors, text(c.t('msg.noResults'))];
      return [...errors, { kind: 'table', columns: [c.t('table.store'), c.t('table.source'), c.t('table.snippet')], rows: hits.map((h) => [h.store, h.source, h.snippet]) }];
    });
