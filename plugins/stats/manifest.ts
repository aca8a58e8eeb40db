// Stats & Self-evaluation (spec part 2 help group). The chat issue fills the stats block;
// this plugin owns the switches and their settings.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

const onOff = ['on', 'off'] as const;

export default definePlugin({
  api: PLUGIN_API,
  id: 'stats',
  version: '1.0.0',
  helpGroups: [{ id: 'stats', order: 40 }],
  commands: [
    { id: 'stats', words: ['stats'], group: 'stats', args: [{ name: 'state', values: onOff }] },
    { id: 'eval', words: ['eval'], group: 'stats', args: [{ name: 'state', values: onOff }] },
  ],
  settings: [
    { key: 'useStats', type: 'boolean', default: false, scope: 'device', turn: true, info: true },
    { key: 'useEval', type: 'boolean', default: false, scope: 'device', sync: true, turn: true, info: true },
  ],
});
