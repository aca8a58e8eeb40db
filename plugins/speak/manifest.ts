// Speak: reading answers aloud with the browser's speech synthesis (spec parts 2 and 9).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'speak',
  version: '1.0.0',
  // Speech follows the answer as it streams, so the plugin listens from the start.
  activation: 'startup',
  commands: [
    { id: 'speak', words: ['speak'], group: 'speak', args: [{ name: 'state', values: ['on', 'off'] }] },
    { id: 'voice', words: ['voice'], group: 'speak' },
    { id: 'voice.ls', words: ['voice', 'ls'], aliases: [['voice', 'list']], group: 'speak' },
    { id: 'voice.use', words: ['voice', 'use'], group: 'speak', args: [{ name: 'name', quoted: 'voiceName', complete: 'voice' }] },
    { id: 'voice.reset', words: ['voice', 'reset'], group: 'speak' },
  ],
  settings: [
    { key: 'useSpeak', type: 'boolean', default: false, scope: 'tab', sync: true, info: true },
    { key: 'voice', type: 'string', default: 'default', scope: 'device', info: true },
  ],
});
