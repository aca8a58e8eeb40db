// Which model answers (the `model` setting and its `baseUrl`): `:model use`, `:set model`,
// `:model unuse`, `:model reset`.
import { error, resetSession, text, withApiErrors, type CommandContext, type CommandHandler, type SettingSetter } from '../../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../../src/core/serverMessages.ts';
import { MESSAGES } from '../messages.ts';
import { clearModel, type ModelAccess } from './shared.ts';

/** Uses a model: the local model server's first, then the server's (user → group → system). */
const use = ({ local, serverModel }: ModelAccess, c: CommandContext, name: string) =>
  withApiErrors(async () => {
    const names = await local.list();
    if (names?.includes(name)) {
      c.settings.set('model', name);
      c.settings.set('baseUrl', local.baseUrl());
      return text(c.t('msg.using', { name }));
    }
    const found = await serverModel(name);
    if (!found) return error(MESSAGES.notFound);
    c.settings.set('model', found.name);
    c.settings.set('baseUrl', found.base_url ?? '');
    return text(c.t('msg.using', { name: found.name }));
  });

export const useModel =
  (models: ModelAccess): CommandHandler =>
  (c) =>
    use(models, c, c.args.name ?? '');

/** `:set model "x"` is `:model use "x"` (its base URL follows), and an empty value `:model unuse`. */
export const setModel =
  (models: ModelAccess): SettingSetter =>
  async (value, c) => {
    if (!c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
    const name = value.trim();
    if (name) return use(models, c, name);
    clearModel(c.settings);
    return text(c.t('msg.unused'));
  };

export const unuseModel =
  ({ defaultModel }: ModelAccess): CommandHandler =>
  async (c) => {
    if (!c.settings.get<string>('model')) return error(MESSAGES.noneSet);
    clearModel(c.settings);
    const name = await defaultModel();
    return text(name ? c.t('msg.unusedDefault', { name }) : c.t('msg.unused'));
  };

export const resetModel: CommandHandler = (c) => {
  clearModel(c.settings);
  resetSession(c.settings);
  return text(c.t('msg.reset'));
};
