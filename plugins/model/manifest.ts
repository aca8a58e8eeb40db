// Models (spec parts 2, 3, 6, 7): the active model and its details, the lists (user, group,
// system and the local model server's), and the user's own models with their own keys.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'model',
  version: '1.0.0',
  helpGroups: [{ id: 'models', order: 30 }],
  commands: [
    { id: 'model', words: ['model'], aliases: [['m']], group: 'models', args: [{ name: 'name', quoted: 'name', optional: true, complete: 'model' }] },
    { id: 'model.ls', words: ['model', 'ls'], aliases: [['model', 'list']], group: 'models' },
    { id: 'model.use', words: ['model', 'use'], group: 'models', needs: ['login'], args: [{ name: 'name', quoted: 'name', complete: 'model' }] },
    { id: 'model.unuse', words: ['model', 'unuse'], group: 'models' },
    { id: 'model.reset', words: ['model', 'reset'], group: 'models' },
    {
      id: 'model.add',
      words: ['model', 'add'],
      group: 'models',
      needs: ['server', 'login'],
      args: [
        { name: 'name', quoted: 'name' },
        { name: 'base_url', quoted: 'settingValue' },
        // Masked while typed and never kept in history.
        { name: 'api_key', quoted: 'settingValue', optional: true, secret: true },
      ],
    },
    {
      id: 'model.set',
      words: ['model', 'set'],
      group: 'models',
      needs: ['server', 'login'],
      args: [
        { name: 'name', quoted: 'name', complete: 'userModel' },
        { name: 'key', complete: 'modelSettingKey' },
        // The value may be an API key, so every `:model set` line is masked and kept out of history.
        { name: 'value', quoted: 'settingValue', secret: true },
      ],
    },
    {
      id: 'model.del',
      words: ['model', 'del'],
      aliases: [['model', 'delete']],
      group: 'models',
      needs: ['server', 'login'],
      args: [{ name: 'name', quoted: 'name', complete: 'userModel' }],
    },
  ],
  settings: [
    {
      key: 'model',
      type: 'string',
      default: '',
      scope: 'tab',
      sync: true,
      turn: true,
      info: true,
      // The Settings page lists the models one can use (ctx.choices); picking one is `:model use`.
      page: { order: 20, login: true },
    },
    { key: 'baseUrl', type: 'string', default: '', scope: 'tab', settable: false, info: true },
  ],
});
