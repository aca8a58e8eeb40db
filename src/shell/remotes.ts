// Third-party plugins as Module Federation remotes (DESIGN.md §2). Loaded only when the
// operator configures remotes; the URLs come from server configuration, never from users.
import { createInstance } from '@module-federation/runtime';
import type { I18n, PluginEntry, PluginHost, RemotePluginConfig } from '../core/host/index.ts';
import type { ShellController } from './controller.ts';

export async function loadRemotePlugins(
  host: PluginHost,
  controller: ShellController,
  i18n: I18n,
  remotes: RemotePluginConfig[],
): Promise<void> {
  const mf = createInstance({
    name: 'shellchat_host',
    remotes: remotes.map((r) => ({ name: r.name, entry: r.entry, type: 'module' })),
  });
  for (const remote of remotes) {
    try {
      const exposed = (await mf.loadRemote(`${remote.name}/${(remote.module ?? './plugin').replace(/^\.\//, '')}`)) as
        | { default?: PluginEntry }
        | PluginEntry
        | null;
      const entry = exposed && 'default' in exposed && exposed.default ? exposed.default : (exposed as PluginEntry | null);
      if (!entry?.manifest || typeof entry.load !== 'function') throw new Error('it does not export a plugin');
      for (const [lang, strings] of Object.entries(entry.locales ?? {})) {
        i18n.instance.addResourceBundle(lang, entry.manifest.id, strings, true, false);
      }
      host.addPlugin(entry);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`remote plugin ${remote.name} failed`, err);
      controller.show([{ kind: 'error', text: host.t('shell')('ui.pluginLoadFailed', { name: remote.name, message }) }]);
    }
  }
}
