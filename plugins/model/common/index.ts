// Handlers of the model commands, on top of the API client and a source of local models (the
// browser passes the local model server; see ../client/ollama.ts), one module per command in
// commands/. The server decides who may see or change a model and never sends a key (see
// ../server/index.ts).
import type { PluginContext } from '../../../src/core/index.ts';
import { resetModel, setModel, unuseModel, useModel } from './commands/active.ts';
import { listModels } from './commands/list.ts';
import { addModel, deleteModel, setModelKey } from './commands/own.ts';
import { modelAccess, type LocalModels } from './commands/shared.ts';
import { showModel } from './commands/show.ts';
import { MODEL_SETTING_KEYS } from './limits.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';
export type { LocalModels } from './commands/shared.ts';

export function activateModel(ctx: PluginContext, local: LocalModels): void {
  const models = modelAccess(ctx, local);

  ctx.completion('model', async () => {
    const [lists, names] = await Promise.all([models.serverLists(), models.local.list()]);
    return [...new Set([...lists.user_models, ...lists.group_models, ...lists.system_models].map((m) => m.name).concat(names ?? []))];
  });
  // The Settings page: the models one may use, by where they come from.
  ctx.choices('model', async () => {
    const [lists, names] = await Promise.all([models.serverLists(), models.local.list()]);
    // With no model set, the default answers: the page shows it picked, as `:model ls` stars it.
    const fallback = await models.defaultModel(lists);
    return [
      { title: ctx.t('list.user'), values: lists.user_models.map((m) => m.name) },
      { title: ctx.t('list.group'), values: lists.group_models.map((m) => m.name) },
      { title: ctx.t('list.system'), values: lists.system_models.map((m) => m.name), byDefault: fallback },
      { title: ctx.t('list.local'), values: names ?? [] },
    ];
  });
  ctx.completion('userModel', async () => {
    const lists = await models.serverLists();
    return [...lists.user_models, ...lists.group_models.filter((m) => m.mine)].map((m) => m.name);
  });
  ctx.completion('modelSettingKey', () => [...MODEL_SETTING_KEYS]);

  ctx.handle('model', showModel(models));
  ctx.handle('model.ls', listModels(models));
  ctx.handle('model.use', useModel(models));
  ctx.setter('model', setModel(models));
  ctx.handle('model.unuse', unuseModel(models));
  ctx.handle('model.reset', resetModel);
  ctx.handle('model.add', addModel(models));
  ctx.handle('model.set', setModelKey(models));
  ctx.handle('model.del', deleteModel(models));
}
