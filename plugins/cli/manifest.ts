// The terminal client's own commands (spec part 2's CLI help group): they run in `shellchat`;
// the browser lists them in :help and says where they work.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'cli',
  version: '1.0.0',
  helpGroups: [{ id: 'cli', order: 110 }],
  commands: [
    { id: 'edit', words: ['edit'], envs: ['cli'], group: 'cli', args: [{ name: 'text', optional: true, rest: true }] },
    { id: 'exit', words: ['exit'], aliases: [['quit'], ['q']], envs: ['cli'], group: 'cli' },
  ],
});
