// Which stores are active (the local `stores` setting, at most three): `:store use`, `:store
// unuse`, `:store reset`, and `:set stores "a,b"`, which follows `:store use`'s rules.
import { error, MAX_ACTIVE_STORES, text, withApiErrors, type CommandHandler, type SettingSetter } from '../../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../../src/core/serverMessages.ts';
import { MESSAGES } from '../messages.ts';
import { activeList } from '../rules.ts';
import type { StoreAccess } from './shared.ts';

export const useStore =
  ({ active, setActive, details }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      if (!name) return error(MESSAGES.invalidName);
      const names = active(c);
      if (names.includes(name)) return error(MESSAGES.alreadyActive(name));
      if (names.length >= MAX_ACTIVE_STORES) return error(MESSAGES.tooManyActive);
      if (!(await details(name))) return error(MESSAGES.notExists);
      setActive(c, [...names, name]);
      return text(c.t('msg.using', { name }));
    });

/** Each one a store this user may use; an empty value is `:store reset`. */
export const setStores =
  ({ setActive, details }: StoreAccess): SettingSetter =>
  (value, c) =>
    withApiErrors(async () => {
      const names = [...new Set(activeList(value.trim()))];
      if (names.length > MAX_ACTIVE_STORES) return error(MESSAGES.tooManyActive);
      if (names.length && !c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
      for (const name of names) if (!(await details(name))) return error(`${MESSAGES.notExists} (${name})`);
      setActive(c, names);
      return names.length ? text(c.t('msg.using', { name: names.join(', ') })) : text(c.t('msg.reset'));
    });

export const unuseStore =
  ({ active, setActive }: StoreAccess): CommandHandler =>
  (c) => {
    const name = c.args.name ?? '';
    const names = active(c);
    if (!names.includes(name)) return error(c.t('msg.notActive', { name }));
    setActive(c, names.filter((n) => n !== name));
    return text(c.t('msg.unused', { name }));
  };

export const resetStores: CommandHandler = (c) => {
  c.settings.set('stores', '');
  return text(c.t('msg.reset'));
};
