// Nodes (spec parts 2, 3, 5, 6, 7, 8): external AI endpoints whose output reaches the model as
// context before the answer; the whole Node help group, with `:generate` calling a node directly.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'node',
  version: '1.0.0',
  helpGroups: [{ id: 'nodes', order: 80 }],
  commands: [
    {
      id: 'generate',
      words: ['generate'],
      aliases: [['g']],
      group: 'nodes',
      needs: ['server', 'login'],
      args: [{ name: 'input', quoted: 'prompt' }],
    },
    { id: 'node', words: ['node'], aliases: [['n']], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'name', quoted: 'name', optional: true, complete: 'node' }] },
    { id: 'node.ls', words: ['node', 'ls'], aliases: [['node', 'list']], group: 'nodes', needs: ['server', 'login'] },
    { id: 'node.use', words: ['node', 'use'], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'name', quoted: 'name', complete: 'node' }] },
    { id: 'node.unuse', words: ['node', 'unuse'], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'name', quoted: 'name', complete: 'node' }] },
    { id: 'node.reset', words: ['node', 'reset'], group: 'nodes' },
    { id: 'node.add', words: ['node', 'add'], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'name', quoted: 'name' }] },
    { id: 'node.del', words: ['node', 'del'], aliases: [['node', 'delete']], group: 'nodes', needs: ['server', 'login'] },
    { id: 'node.set.owner', words: ['node', 'set', 'owner'], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'owner' }] },
    {
      id: 'node.set',
      words: ['node', 'set'],
      group: 'nodes',
      needs: ['server', 'login'],
      args: [
        { name: 'key', complete: 'nodeSettingKey' },
        // The value may be an API key, so every `:node set` line is masked and kept out of history.
        { name: 'value', quoted: 'settingValue', secret: true },
      ],
    },
  ],
  settings: [{ key: 'node', type: 'string', default: '', scope: 'tab', sync: 'login', turn: true, settable: false, info: true, page: { order: 60, login: true } }],
});
