// Web search and reading pages (issue 37): `:web "query"` lists results, `:web open 2` (or a
// URL) reads a page for the next question, `:web` lists what was read; the system functions
// web_search and web_fetch let a model do both; `+web[query]` in a question searches first.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';
import { WEB_FUNCTIONS } from './common/functions.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'web',
  version: '1.0.0',
  helpGroups: [{ id: 'web', order: 75 }],
  commands: [
    { id: 'web', words: ['web'], group: 'web', needs: ['server'], args: [{ name: 'query', quoted: 'searchText', optional: true }] },
    { id: 'web.open', words: ['web', 'open'], group: 'web', needs: ['server'], args: [{ name: 'target', display: '<number|url>' }] },
  ],
  functions: WEB_FUNCTIONS,
  markers: ['+page['],
});
