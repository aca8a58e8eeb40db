// React access to the shell: the controller, the host, settings and translation.
import { createContext, use, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { I18n, PluginHost, SettingsStore, SettingValue, Translate } from '../core/host/index.ts';
import type { ShellController, ShellState } from './controller.ts';
import { useStore } from './stateStore.ts';

export interface ShellServices {
  controller: ShellController;
  settings: SettingsStore;
  i18n: I18n;
}

export const ShellContext = createContext<ShellServices | null>(null);

export function useShell(): ShellServices {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell outside ShellContext');
  return value;
}

/** The plugin host; suspends until the command runtime has loaded. */
export function useHost(): PluginHost {
  return use(useShell().controller.host());
}

export function useShellState<T>(select: (s: ShellState) => T): T {
  return useStore(useShell().controller.state, select);
}

export function useSetting<T extends SettingValue>(key: string): T {
  const { settings } = useShell();
  return useSyncExternalStore(
    (fn) => settings.onChange(key, fn),
    () => settings.get<T>(key),
  );
}

/** Re-renders on language change and returns the translator of a namespace. */
export function useT(ns = 'shell'): Translate {
  const { i18n } = useShell();
  const [, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    i18n.instance.on('languageChanged', bump);
    i18n.instance.on('loaded', bump);
    return () => {
      i18n.instance.off('languageChanged', bump);
      i18n.instance.off('loaded', bump);
    };
  }, [i18n]);
  return i18n.tFor(ns);
}

/** Loads locale namespaces (for pages that show every plugin's text) and re-renders when done. */
export function useNamespaces(ns: readonly string[]): boolean {
  const { i18n } = useShell();
  const [ready, setReady] = useState(false);
  const key = ns.join(',');
  useEffect(() => {
    let live = true;
    void i18n.loadNamespaces([...ns]).then(() => live && setReady(true));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [i18n, key]);
  return ready;
}
