// `:node [name]` (a node's details) and `:node ls` (the nodes one may use, starred where the
// active one resolves).
import { error, send, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { NodeLists } from '../rules.ts';
import type { NodeAccess } from './shared.ts';

export const showNode =
  ({ active, details }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? active(c.settings);
      if (!name) return error(MESSAGES.noneSet);
      const found = await details(name);
      return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
    });

export const listNodes =
  ({ api, active }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const all = (await send(api.list.$get())).result;
      if (!all.user_nodes.length && !all.group_nodes.length && !all.system_nodes.length) return error(MESSAGES.noneAvailable);
      const current = active(c.settings);
      // The server resolves a name user → group → system: star where it resolves.
      const starIn = (['user_nodes', 'group_nodes', 'system_nodes'] as const).find((k) => all[k].some((n) => n.name === current));
      const section = (title: string, key: keyof NodeLists): Output => ({
        kind: 'list',
        title,
        items: all[key].map((n) => ({ text: n.name, active: starIn === key && n.name === current })),
        empty: c.t('msg.none'),
      });
      return [section(c.t('list.user'), 'user_nodes'), section(c.t('list.group'), 'group_nodes'), section(c.t('list.system'), 'system_nodes')];
    });
