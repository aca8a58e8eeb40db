// Full-text search over one's own logs (issue 39): `:search "words"` lists the logs of all one's
// sessions that hold every word, ranked, each with its session, time and a snippet with the
// words highlighted; Enter on a result (`:search open <session> <time>`) opens that log. Indexed by each
// database engine itself (server/schema.ts).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'search',
  version: '1.0.0',
  commands: [
    { id: 'search', words: ['search'], aliases: [['sr']], group: 'sessions', needs: ['server', 'login'], args: [{ name: 'text', quoted: 'searchText' }] },
    // What Enter on a result runs (and the terminal prints under each result, to type).
    {
      id: 'search.open',
      words: ['search', 'open'],
      group: 'sessions',
      needs: ['server', 'login'],
      args: [
        { name: 'session', display: '<session>' },
        { name: 'time', display: '<time>' },
      ],
    },
  ],
});
