// The command runtime: the plugin host with the parser, the registry, completion and help.
// It is loaded right after the first paint (and at the latest on the first command), so the
// first paint of the front view carries none of it.
import {
  createApiClient,
  PlatformRef,
  PluginHost,
  runFunctionCalls,
  type I18n,
  type PluginEntry,
  type SettingsStore,
  type ShellEvents,
} from '../core/host/index.ts';
import type { Emitter } from 'mitt';
import type { ShellController } from './controller.ts';

// What the controller reads a line with (`:stop`, the working line's name) and Tab's completion:
// part of this chunk, so they are there wherever the host is, a server gone since included.
export { isStop, lineCommand } from '../core/host/lineCommand.ts';
export { TabCompletion } from './completion.ts';

export function createHost(options: {
  plugins: PluginEntry[];
  settings: SettingsStore;
  i18n: I18n;
  events: Emitter<ShellEvents>;
  controller: ShellController;
}): PluginHost {
  const { controller, i18n } = options;
  const host = new PluginHost({
    env: 'browser',
    plugins: options.plugins,
    settings: options.settings,
    events: options.events,
    translator: (ns) => i18n.tFor(ns),
    loadNamespace: (ns) => i18n.loadNamespaces([ns]),
    languageReady: () => i18n.ready(),
    identity: () => controller.identity(),
    onChat: async (parsed, signal) => {
      const t = i18n.tFor('shell');
      let chat: typeof import('./chat/index.ts');
      try {
        chat = await import('./chat/index.ts');
      } catch {
        // Its chunk could not load (the server went away before the page had it): said, not thrown.
        return [{ kind: 'error', text: controller.state.get().online ? t('ui.loadFailed') : t('msg.offline') }];
      }
      return chat.runChat(parsed, { controller, settings: options.settings, events: options.events, t }, signal);
    },
    online: () => controller.state.get().online,
    // `!name({...})` calls: the function plugin runs them (it activates on first use).
    onFunction: (parsed) => runFunctionCalls(host, parsed),
  });
  host.services.provide(PlatformRef, {
    online: () => controller.state.get().online,
    serverUrl: () => location.origin,
    systemInfo: () => controller.state.get().systemInfo,
    api: createApiClient(),
  });
  // After a reload: the markers the input held go back where their plugins say they still hold,
  // unless a line ran meanwhile (a question took them).
  const held = controller.attached.held();
  const runs = controller.state.get().runs;
  if (held) {
    void host.stillHeld(held).then(
      (back) => controller.state.get().runs === runs && controller.show(back.map((marker) => ({ kind: 'effect', effect: { type: 'attach', marker } }))),
      () => undefined,
    );
  }
  return host;
}
