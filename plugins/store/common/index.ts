// Handlers of the store commands, on top of the API client, one module per command in commands/.
// The active stores live in the local `stores` setting (a comma list, at most 3); the server
// decides who may see or change a store.
import type { PluginContext } from '../../../src/core/index.ts';
import { addStore } from './commands/add.ts';
import { resetStores, setStores, unuseStore, useStore } from './commands/active.ts';
import { deleteStore, initStore, resetStoreData } from './commands/lifecycle.ts';
import { listStores } from './commands/list.ts';
import { searchStores } from './commands/search.ts';
import { setStore, setStoreOwner } from './commands/set.ts';
import { storeAccess } from './commands/shared.ts';
import { showStore } from './commands/show.ts';
import { uploadToStore, type StoreUploader } from './commands/upload.ts';
import { STORE_ENGINES, STORE_SETTING_KEYS } from './limits.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';
export { checkUpload, progressLines, UPLOAD_ACCEPT, type PickedFile, type StoreUploader } from './commands/upload.ts';

export function activateStore(ctx: PluginContext, options: { uploader?: StoreUploader<any> } = {}): void {
  const store = storeAccess(ctx);

  ctx.completion('store', async () => {
    const l = await store.lists();
    return [...new Set([...l.user_stores, ...l.group_stores, ...l.system_stores].map((s) => s.name))];
  });
  // The Settings page: the stores one may use, by scope (three at most active: the setter says so).
  ctx.choices('stores', async () => {
    const l = await store.lists();
    return [
      { title: ctx.t('list.user'), values: l.user_stores.map((s) => s.name) },
      { title: ctx.t('list.group'), values: l.group_stores.map((s) => s.name) },
      { title: ctx.t('list.system'), values: l.system_stores.map((s) => s.name) },
    ];
  });
  ctx.completion('storeEngine', () => [...STORE_ENGINES]);
  ctx.completion('storeSettingKey', () => [...new Set([...STORE_SETTING_KEYS.file, ...STORE_SETTING_KEYS.mysql])]);

  ctx.handle('store', showStore(store));
  ctx.handle('store.ls', listStores(store));
  ctx.handle('store.use', useStore(store));
  ctx.setter('stores', setStores(store));
  ctx.handle('store.unuse', unuseStore(store));
  ctx.handle('store.reset', resetStores);
  ctx.handle('store.add', addStore(store));
  ctx.handle('store.init', initStore(store));
  ctx.handle('store.set.owner', setStoreOwner(store));
  ctx.handle('store.set', setStore(store));
  ctx.handle('store.data.upload', uploadToStore(store, options.uploader));
  ctx.handle('store.data.reset', resetStoreData(store));
  ctx.handle('store.del', deleteStore(store));
  ctx.handle('store.search', searchStores(store));
}
