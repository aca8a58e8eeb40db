// `:role [name]` (a role's prompt) and `:role ls` (one's roles and the system's, starred where
// the active one resolves).
import { error, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { showRole, type RoleAccess } from './shared.ts';

export const showActiveRole =
  ({ find }: RoleAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? c.settings.get<string>('role');
      if (!name) return error(MESSAGES.noneSet);
      const found = await find(name);
      return found ? showRole(c, found) : error(MESSAGES.notExist(name));
    });

export const listRoles =
  ({ lists }: RoleAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const { user_roles, system_roles } = await lists(true);
      if (!user_roles.length && !system_roles.length) return error(MESSAGES.noneFound);
      const active = c.settings.get<string>('role');
      // A user role wins over a system role of the same name: star where the name resolves.
      const inUser = user_roles.some((r) => r.name === active);
      const out: Output[] = [];
      if (c.identity.loggedIn) {
        out.push({
          kind: 'list',
          title: c.t('list.user'),
          items: user_roles.map((r) => ({ text: r.name, active: r.name === active })),
          empty: c.t('msg.none'),
        });
      }
      out.push({
        kind: 'list',
        title: c.t('list.system'),
        items: system_roles.map((r) => ({ text: r.name, active: !inUser && r.name === active })),
        empty: c.t('msg.none'),
      });
      return out;
    });
