// Documentation contributions of the general plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
    introduction: ['docs.introduction.1', 'docs.introduction.2'],
    quickStart: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ key: `docs.quickStart.${n}`, order: n })),
    features: [
      // Feature 9 (speech) is the speak plugin's, and the first of the more features
      // (self-evaluation) the stats plugin's: each goes with its plugin.
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ key: `docs.features.${n}`, order: n < 9 ? n : 10 })),
      ...[1, 2, 3, 4, 5].map((n) => ({ key: `docs.moreFeatures.${n}`, order: 101 + n, more: true })),
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
      { keys: 'Esc, Tab', key: 'docs.shortcuts.leaveInput' },
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
  };

export default docs;
