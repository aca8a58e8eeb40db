// `:store add <engine> <name>`: creates a store and makes it active, unless three are already.
import { error, MAX_ACTIVE_STORES, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { checkEngine, checkStoreName } from '../rules.ts';
import type { StoreAccess } from './shared.ts';

export const addStore =
  ({ api, active, setActive }: StoreAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const engine = c.args.engine ?? '';
      const name = c.args.name ?? '';
      if (!checkEngine(engine)) return error(MESSAGES.invalidEngine);
      const problem = checkStoreName(name);
      if (problem) return error(problem);
      const names = active(c);
      const created = text(saidIn(await send(api().add.$post({ json: { name, engine } }))) || MESSAGES.created(name));
      // A store created by add becomes active, unless three are active already: then it is
      // created all the same, and the person is told how to use it.
      if (names.includes(name)) return created;
      if (names.length >= MAX_ACTIVE_STORES) return [created, text(c.t('msg.createdInactive', { max: MAX_ACTIVE_STORES, name }))];
      setActive(c, [...names, name]);
      return created;
    });
