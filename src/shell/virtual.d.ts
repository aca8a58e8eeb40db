declare module 'virtual:shellchat/plugins' {
  import type { PluginEntry, SettingSpec } from '../core/index.ts';
  /** Every enabled plugin's setting specs, serialized at build time (first paint). */
  export const settings: SettingSpec[];
  /** The enabled plugins: manifests, lazy code and docs (loaded with the command runtime). */
  export function loadPlugins(): Promise<PluginEntry[]>;
  /** What the first paint shows of the English shell strings (`msg`, `ui`): src/shell/shellStrings.ts. */
  export const firstPaintEnglish: Record<string, unknown>;
  export function loadLocale(lang: string, ns: string): Promise<Record<string, unknown> | undefined>;
}
