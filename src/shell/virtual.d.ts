declare module 'virtual:shellchat/plugins' {
  import type { PluginEntry, SettingSpec } from '../core/index.ts';
  /** Every enabled plugin's setting specs, serialized at build time (first paint). */
  export const settings: SettingSpec[];
  /** The enabled plugins: manifests, lazy code and docs (loaded with the command runtime). */
  export function loadPlugins(): Promise<PluginEntry[]>;
  export function loadLocale(lang: string, ns: string): Promise<Record<string, unknown> | undefined>;
}
