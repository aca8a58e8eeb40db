// `:store ls`: the stores one may use, by scope, the active ones marked.
import { error, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { StoreLists } from '../rules.ts';
import type { StoreAccess } from './shared.ts';

export const listStores =
  ({ active, lists }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const l = await lists(true);
      const names = active(c);
      if (![...l.user_stores, ...l.group_stores, ...l.system_stores].length) return error(MESSAGES.noAvailable);
      const section = (title: string, items: StoreLists['user_stores']): Output => ({
        kind: 'list',
        title,
        items: items.map((s) => ({ text: `${s.name} (${s.engine})`, active: names.includes(s.name) })),
        empty: c.t('msg.none'),
      });
      return [section(c.t('list.user'), l.user_stores), section(c.t('list.group'), l.group_stores), section(c.t('list.system'), l.system_stores)];
    });
