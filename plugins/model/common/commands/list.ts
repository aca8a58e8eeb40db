// `:model ls`: the models one may use, by where they come from, starred where the active (or
// default) one resolves.
import { error, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { ModelAccess, ModelLists } from './shared.ts';

export const listModels =
  ({ local, serverLists, defaultModel, activeIsLocal }: ModelAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const [lists, names] = await Promise.all([serverLists(true), local.list()]);
      const active = c.settings.get<string>('model');
      const isLocal = activeIsLocal(c.settings);
      const current = active || (await defaultModel(lists));
      // The server resolves a name user → group → system: star where it resolves.
      const starIn = isLocal ? undefined : (['user_models', 'group_models', 'system_models'] as const).find((k) => lists[k].some((m) => m.name === current));
      const section = (title: string, key: keyof ModelLists): Output => ({
        kind: 'list',
        title,
        items: lists[key].map((m) => ({ text: m.name, active: starIn === key && m.name === current })),
        empty: c.t('msg.none'),
      });
      const localNames = names ?? [];
      if (![...lists.user_models, ...lists.group_models, ...lists.system_models].length && !localNames.length) return error(MESSAGES.noneAvailable);
      return [
        section(c.t('list.user'), 'user_models'),
        section(c.t('list.group'), 'group_models'),
        section(c.t('list.system'), 'system_models'),
        {
          kind: 'list',
          title: c.t('list.local'),
          items: localNames.map((name) => ({ text: name, active: isLocal && name === active })),
          empty: c.t('msg.none'),
        },
      ];
    });
