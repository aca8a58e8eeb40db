// One's own models on the server: `:model add`, `:model set`, `:model del` (the active model's
// setting follows a change or a deletion).
import { error, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { checkModelName, checkModelSetting } from '../rules.ts';
import { clearModel, type ModelAccess } from './shared.ts';

export const addModel =
  ({ api }: ModelAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const problem = checkModelName(name);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { name, base_url: c.args.base_url ?? '', api_key: c.args.api_key ?? '' } }));
      return [text(saidIn(answer) || MESSAGES.added(name)), { kind: 'json', value: answer.result }];
    });

export const setModelKey =
  ({ api, activeIsLocal }: ModelAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const key = (c.args.key ?? '').toLowerCase();
      const checked = checkModelSetting(key, c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api.update.$post({ json: { name, key, value: c.args.value ?? '' } }));
      const model = answer.result!;
      // The active model's base URL follows the change (it is what `:info` shows).
      if (key === 'base_url' && c.settings.get<string>('model') === name && !activeIsLocal(c.settings)) c.settings.set('baseUrl', model.base_url ?? '');
      return [text(saidIn(answer) || MESSAGES.updated(name)), { kind: 'json', value: model }];
    });

export const deleteModel =
  ({ api, activeIsLocal }: ModelAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api.delete.$post({ json: { name } }));
      if (c.settings.get<string>('model') === name && !activeIsLocal(c.settings)) clearModel(c.settings);
      return text(saidIn(answer) || MESSAGES.deleted(name));
    });
