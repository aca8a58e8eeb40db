// Information: `:info` shows what the shell is working with (spec part 2 help group).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'info',
  version: '1.0.0',
  helpGroups: [{ id: 'information', order: 100 }],
  commands: [{ id: 'info', words: ['info'], aliases: [['i']], group: 'information' }],
});
