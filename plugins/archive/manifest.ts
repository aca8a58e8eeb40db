// Conversations in and out (issue 39): `:session export` writes one's sessions as shellchat's
// JSON (the branch tree kept) or Markdown; `:session import` reads shellchat's JSON, a ChatGPT
// export or a Claude export back, streamed, one transaction per conversation. The words extend
// the session plugin's `:session` (the registry takes the longest match), so this plugin needs
// nothing from it.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'archive',
  version: '1.0.0',
  helpGroups: [{ id: 'archive', order: 21 }],
  commands: [
    {
      id: 'session.export',
      words: ['session', 'export'],
      group: 'archive',
      needs: ['server', 'login'],
      args: [{ name: 'options', optional: true, rest: true, display: '[--all] [--format md|json] [<file>]' }],
    },
    {
      id: 'session.import',
      words: ['session', 'import'],
      group: 'archive',
      needs: ['server', 'login'],
      args: [{ name: 'path', optional: true, rest: true, display: '[<file>]' }],
    },
  ],
});
