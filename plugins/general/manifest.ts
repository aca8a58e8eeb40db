// General commands (spec part 6, anonymous list): help, view, language, location, stream, set,
// reset, clear, stop. Pure data; the handlers live in common/ and load on first use.
import { definePlugin, FULLSCREEN_MODES, PLUGIN_API, THEMES, DEFAULT_MEM_LENGTH } from '../../src/core/index.ts';

const onOff = ['on', 'off'] as const;

export default definePlugin({
  api: PLUGIN_API,
  id: 'general',
  version: '1.0.0',
  commands: [
    { id: 'help', words: ['help'], aliases: [['h']], group: 'general', args: [{ name: 'command', optional: true, rest: true, complete: 'command' }] },
    { id: 'stop', words: ['stop'], group: 'general' },
    { id: 'clear', words: ['clear'], group: 'general' },
    { id: 'reset', words: ['reset'], aliases: [['r']], group: 'general' },
    { id: 'fullscreen', words: ['fullscreen'], group: 'general', args: [{ name: 'mode', optional: true, values: FULLSCREEN_MODES }] },
    { id: 'split', words: ['split'], group: 'general' },
    { id: 'theme', words: ['theme'], aliases: [['t']], group: 'general', args: [{ name: 'theme', optional: true, values: THEMES }] },
    { id: 'lang', words: ['lang'], group: 'general' },
    { id: 'lang.ls', words: ['lang', 'ls'], aliases: [['lang', 'list']], group: 'general' },
    { id: 'lang.use', words: ['lang', 'use'], group: 'general', args: [{ name: 'code', complete: 'lang' }] },
    { id: 'lang.reset', words: ['lang', 'reset'], group: 'general' },
    { id: 'location', words: ['location'], group: 'general', args: [{ name: 'state', values: onOff }] },
    { id: 'stream', words: ['stream'], group: 'general', args: [{ name: 'state', values: onOff }] },
    { id: 'set', words: ['set'], group: 'general', args: [{ name: 'key', complete: 'settingKey' }, { name: 'value', rest: true }] },
    { id: 'set.all', words: ['set', 'all'], group: 'general' },
  ],
  settings: [
    { key: 'useStream', type: 'boolean', default: true, scope: 'device', info: true },
    { key: 'useLocation', type: 'boolean', default: false, scope: 'device', info: true },
    { key: 'location', type: 'string', default: '', scope: 'device' },
    { key: 'memLength', type: 'number', default: DEFAULT_MEM_LENGTH, scope: 'tab', sync: true, info: true },
    { key: 'useSystemRole', type: 'boolean', default: true, scope: 'device', sync: true },
  ],
  docs: {
    introduction: ['docs.introduction.1', 'docs.introduction.2'],
    quickStart: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ key: `docs.quickStart.${n}`, order: n })),
    features: [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ key: `docs.features.${n}`, order: n })),
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ key: `docs.moreFeatures.${n}`, order: 100 + n, more: true })),
    ],
    shortcuts: [
      { keys: 'Ctrl+C', key: 'docs.shortcuts.stop' },
      { keys: 'Ctrl+R', key: 'docs.shortcuts.clear' },
      { keys: 'Ctrl+Shift+R', key: 'docs.shortcuts.reset' },
      { keys: 'F11', key: 'docs.shortcuts.fullscreen' },
      { keys: 'Ctrl+|', key: 'docs.shortcuts.split' },
      { keys: 'Esc', key: 'docs.shortcuts.esc' },
      { keys: 'Tab, /', key: 'docs.shortcuts.focus' },
      { keys: 'Tab', key: 'docs.shortcuts.tabEmpty' },
      { keys: 'Tab', key: 'docs.shortcuts.tabComplete' },
      { keys: '↑ ↓', key: 'docs.shortcuts.history' },
      { keys: '↑/H ↓/L', key: 'docs.shortcuts.sessions' },
      { keys: '←/K →/J', key: 'docs.shortcuts.logs' },
      { keys: 'Ctrl+,', key: 'docs.shortcuts.settings' },
    ],
    gestures: [
      { gesture: '→', key: 'docs.gestures.previousLog' },
      { gesture: '←', key: 'docs.gestures.nextLog' },
      { gesture: '→ (input)', key: 'docs.gestures.inputComplete' },
      { gesture: '← (input)', key: 'docs.gestures.inputClear' },
    ],
    faqs: [
      { question: 'docs.faqs.copy.question', answer: 'docs.faqs.copy.answer' },
      { question: 'docs.faqs.share.question', answer: 'docs.faqs.share.answer' },
    ],
    feedback: [
      { label: 'docs.feedback.community', href: 'https://discord.gg/shellchat' },
      { label: 'docs.feedback.email', href: 'mailto:support@shellchat.dev' },
      { label: 'docs.feedback.issues', href: 'https://github.com/shellchat/shellchat/issues' },
    ],
  },
});
