// Settings the shell itself reads and writes (spec part 3, "Local (browser) settings").
// Plugins declare the rest in their manifests; `:set` and the Settings page see both.
import { FULLSCREEN_MODES, THEMES } from '../constants.ts';
import type { SettingSpec } from '../settings.ts';

export const SHELL_SETTINGS: readonly SettingSpec[] = [
  { key: '_up', type: 'number', default: 0, scope: 'device', settable: false },
  { key: 'user', type: 'string', default: '', scope: 'device', settable: false },
  { key: 'history', type: 'list', default: [], scope: 'device', settable: false },
  { key: 'historyIndex', type: 'number', default: -1, scope: 'tab', settable: false },
  { key: 'session', type: 'number', default: 0, scope: 'tab', info: true },
  { key: 'time', type: 'number', default: 0, scope: 'tab' },
  { key: 'head', type: 'number', default: 0, scope: 'tab' },
  // lang first: the server lists the kept settings in this order (spec part 3: lang, theme, fullscreen...).
  // The Settings page offers the 28 locales of SETTINGS_LOCALES (spec part 9).
  { key: 'lang', type: 'string', default: '', scope: 'device', sync: true, turn: true, info: true, settable: false, page: { order: 70 } },
  {
    key: 'theme',
    type: 'enum',
    values: THEMES,
    default: 'light',
    scope: 'device',
    sync: true,
    info: true,
    envs: ['browser'],
    page: { order: 10 },
  },
  { key: 'fullscreen', type: 'enum', values: FULLSCREEN_MODES, default: 'off', scope: 'device', sync: true, info: true, envs: ['browser'] },
  { key: 'passMask', type: 'boolean', default: true, scope: 'device', sync: true },
];
