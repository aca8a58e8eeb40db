declare module 'virtual:shellchat/plugins' {
  import type { PluginEntry } from '../core/index.ts';
  export const plugins: PluginEntry[];
  export function loadLocale(lang: string, ns: string): Promise<Record<string, unknown> | undefined>;
}
