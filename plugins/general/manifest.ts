// General commands (spec part 6, anonymous list): help, view, language, location, stream, set,
// reset, clear, stop. Pure data; the handlers live in common/ and load on first use.
import { definePlugin, FULLSCREEN_MODES, PLUGIN_API, THEMES, DEFAULT_MEM_LENGTH } from '../../src/core/index.ts';

const onOff = ['on', 'off'] as const;

export default definePlugin({
  api: PLUGIN_API,
  id: 'general',
  version: '1.0.0',
  helpGroups: [{ id: 'general', order: 10 }],
  commands: [
    { id: 'help', words: ['help'], aliases: [['h']], group: 'general', args: [{ name: 'command', optional: true, rest: true, complete: 'command' }] },
    { id: 'stop', words: ['stop'], group: 'general' },
    { id: 'clear', words: ['clear'], group: 'general' },
    { id: 'reset', words: ['reset'], aliases: [['r']], group: 'general' },
    { id: 'fullscreen', words: ['fullscreen'], envs: ['browser'], group: 'general', args: [{ name: 'mode', optional: true, values: FULLSCREEN_MODES }] },
    { id: 'split', words: ['split'], envs: ['browser'], group: 'general' },
    { id: 'theme', words: ['theme'], envs: ['browser'], aliases: [['t']], group: 'general', args: [{ name: 'theme', optional: true, values: THEMES }] },
    { id: 'lang', words: ['lang'], group: 'general' },
    { id: 'lang.ls', words: ['lang', 'ls'], aliases: [['lang', 'list']], group: 'general' },
    { id: 'lang.use', words: ['lang', 'use'], group: 'general', args: [{ name: 'code', complete: 'lang' }] },
    { id: 'lang.reset', words: ['lang', 'reset'], group: 'general' },
    { id: 'location', words: ['location'], envs: ['browser'], group: 'general', args: [{ name: 'state', values: onOff }] },
    { id: 'stream', words: ['stream'], group: 'general', args: [{ name: 'state', values: onOff }] },
    { id: 'set', words: ['set'], group: 'general', args: [{ name: 'key', complete: 'settingKey' }, { name: 'value', rest: true }] },
    { id: 'set.all', words: ['set', 'all'], group: 'general' },
  ],
  settings: [
    { key: 'useStream', type: 'boolean', default: true, scope: 'device', info: true },
    { key: 'useLocation', type: 'boolean', default: false, scope: 'device', turn: true, info: true, envs: ['browser'] },
    { key: 'location', type: 'string', default: '', scope: 'device', turn: true, envs: ['browser'] },
    { key: 'memLength', type: 'number', default: DEFAULT_MEM_LENGTH, scope: 'tab', sync: true, turn: true, info: true },
    { key: 'useSystemRole', type: 'boolean', default: true, scope: 'device', sync: true, turn: true },
  ],
});
