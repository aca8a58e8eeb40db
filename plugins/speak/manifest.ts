// Speak: reading answers aloud with the browser's speech synthesis (spec parts 2 and 9).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'speak',
  version: '1.0.0',
  // Speech follows the answer as it streams, so the plugin listens from the start.
  activation: 'startup',
  helpGroups: [{ id: 'speak', order: 50 }],
  commands: [
    { id: 'speak', words: ['speak'], envs: ['browser'], group: 'speak', args: [{ name: 'state', values: ['on', 'off'] }] },
    { id: 'voice', words: ['voice'], envs: ['browser'], group: 'speak' },
    { id: 'voice.ls', words: ['voice', 'ls'], envs: ['browser'], aliases: [['voice', 'list']], group: 'speak' },
    { id: 'voice.use', words: ['voice', 'use'], envs: ['browser'], group: 'speak', args: [{ name: 'name', quoted: 'voiceName', complete: 'voice' }] },
    { id: 'voice.reset', words: ['voice', 'reset'], envs: ['browser'], group: 'speak' },
  ],
  settings: [
    { key: 'useSpeak', type: 'boolean', default: false, scope: 'tab', sync: true, info: true, envs: ['browser'] },
    { key: 'voice', type: 'string', default: 'default', scope: 'device', info: true, envs: ['browser'] },
  ],
});
