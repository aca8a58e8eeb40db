// `:model [name]`: a model's details: the one named, the active one, or the default.
import { error, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { ModelAccess } from './shared.ts';

export const showModel =
  ({ local, serverModel, defaultModel, activeIsLocal, localDetails, localModel }: ModelAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const requested = c.args.name;
      if (requested !== undefined) {
        const names = await local.list();
        if (names?.includes(requested)) return localDetails(requested);
        const found = await serverModel(requested);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const active = c.settings.get<string>('model');
      if (active && activeIsLocal(c.settings)) return localModel(active);
      if (active) {
        const found = await serverModel(active);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const name = await defaultModel();
      if (!name) return error(MESSAGES.noneSet);
      const found = await serverModel(name).catch(() => undefined);
      return [text(c.t('msg.default')), found ? { kind: 'json', value: found } : { kind: 'json', value: { name, scope: 'system' } }];
    });
