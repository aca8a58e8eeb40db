// Which role is active (the `role` setting; a change resets memory): `:role use`, `:set role`,
// `:role reset`.
import { error, resetSession, text, withApiErrors, type CommandContext, type CommandHandler, type SettingSetter } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { activate, type RoleAccess } from './shared.ts';

const use = ({ find }: RoleAccess, c: CommandContext, name: string) =>
  withApiErrors(async () => {
    const found = await find(name);
    if (!found) return error(MESSAGES.notExist(name));
    activate(c.settings, found.name);
    return text(c.t('msg.using', { name: found.name }));
  });

export const useRole =
  (roles: RoleAccess): CommandHandler =>
  (c) =>
    use(roles, c, c.args.name ?? '');

/** `:set role "x"` is `:role use "x"` (and an empty value `:role reset`): one rule. */
export const setRole =
  (roles: RoleAccess): SettingSetter =>
  (value, c) => {
    const name = value.trim();
    if (name) return use(roles, c, name);
    c.settings.reset('role');
    resetSession(c.settings);
    return text(c.t('msg.reset'));
  };

export const resetRole: CommandHandler = (c) => {
  c.settings.reset('role');
  resetSession(c.settings);
  return text(c.t('msg.reset'));
};
