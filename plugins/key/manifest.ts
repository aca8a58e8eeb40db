// Personal API keys (issue 36): `:key add` shows a new key once, `:key ls` lists one's keys with
// their scope and this month's use, `:key rm` revokes one. The keys reach the OpenAI-compatible
// API at /v1 and the CLI (SHELLCHAT_API_KEY). Pure data; the handlers live in common/.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';
import { ADD_FLAGS } from './common/limits.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'key',
  version: '1.0.0',
  helpGroups: [{ id: 'keys', order: 85 }],
  commands: [
    {
      id: 'key.add',
      words: ['key', 'add'],
      group: 'keys',
      needs: ['server', 'login'],
      args: [
        { name: 'name', quoted: 'name' },
        { name: 'flags', optional: true, rest: true, display: ADD_FLAGS },
      ],
    },
    { id: 'key.ls', words: ['key', 'ls'], aliases: [['key', 'list']], group: 'keys', needs: ['server', 'login'] },
    { id: 'key.rm', words: ['key', 'rm'], aliases: [['key', 'revoke']], group: 'keys', needs: ['server', 'login'], args: [{ name: 'name', quoted: 'name' }] },
  ],
});
