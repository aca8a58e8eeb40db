// Data stores (spec parts 3-8; issue "store plugin"): file stores whose uploaded documents are
// indexed for ranked full-text search in the main database, and mysql stores queried through
// one guarded, read-only SELECT a model writes. Up to 3 stores are active at once.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

const store = { name: 'name', quoted: 'storeName', complete: 'store' } as const;

export default definePlugin({
  api: PLUGIN_API,
  id: 'store',
  version: '1.0.0',
  helpGroups: [{ id: 'stores', order: 70 }],
  commands: [
    { id: 'store', words: ['store'], group: 'stores', needs: ['server', 'login'], args: [{ ...store, optional: true }] },
    { id: 'store.ls', words: ['store', 'ls'], aliases: [['store', 'list']], group: 'stores', needs: ['server', 'login'] },
    { id: 'store.use', words: ['store', 'use'], group: 'stores', needs: ['server', 'login'], args: [store] },
    { id: 'store.unuse', words: ['store', 'unuse'], group: 'stores', needs: ['login'], args: [store] },
    { id: 'store.reset', words: ['store', 'reset'], group: 'stores', needs: ['login'] },
    {
      id: 'store.add',
      words: ['store', 'add'],
      group: 'stores',
      needs: ['server', 'login'],
      args: [{ name: 'engine', quoted: 'name', complete: 'storeEngine' }, { name: 'name', quoted: 'storeName' }],
    },
    { id: 'store.init', words: ['store', 'init'], group: 'stores', needs: ['server', 'login'], args: [{ ...store, optional: true }] },
    { id: 'store.set.owner', words: ['store', 'set', 'owner'], group: 'stores', needs: ['server', 'login'], args: [{ name: 'owner' }] },
    {
      id: 'store.set',
      words: ['store', 'set'],
      group: 'stores',
      needs: ['server', 'login'],
      // The value may be a database password: every `:store set` line is masked and kept out of history.
      args: [{ name: 'key', complete: 'storeSettingKey' }, { name: 'value', quoted: 'settingValue', secret: true }],
    },
    {
      id: 'store.data.upload',
      words: ['store', 'data', 'upload'],
      group: 'stores',
      needs: ['server', 'login'],
      args: [{ name: 'files', optional: true, rest: true, display: '+file[url]...' }],
    },
    { id: 'store.data.reset', words: ['store', 'data', 'reset'], group: 'stores', needs: ['server', 'login'], args: [{ ...store, optional: true }] },
    { id: 'store.del', words: ['store', 'del'], aliases: [['store', 'delete']], group: 'stores', needs: ['server', 'login'], args: [store] },
    { id: 'store.search', words: ['store', 'search'], group: 'stores', needs: ['server', 'login'], args: [{ name: 'text', quoted: 'searchText' }] },
  ],
  settings: [{ key: 'stores', type: 'string', default: '', scope: 'tab', sync: 'login', turn: true, info: true, page: { order: 50, multiple: 3, login: true } }],
});
