// Vite plugin: turns the operator's app config into `virtual:shellchat/plugins`, which holds
// the enabled built-in plugins (eager manifests, lazy browser entries) and lazy loaders for
// their locale files. A plugin left out of the config is never imported, so it is absent
// from the bundle, locale files included.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { AppConfig } from '../app.config.ts';

const VIRTUAL_ID = 'virtual:shellchat/plugins';
const RESOLVED_ID = '\0' + VIRTUAL_ID;

export async function readAppConfig(root: string): Promise<AppConfig> {
  const file = process.env.SHELLCHAT_APP_CONFIG
    ? path.resolve(root, process.env.SHELLCHAT_APP_CONFIG)
    : path.join(root, 'app.config.ts');
  return (await import(pathToFileURL(file).href)).default as AppConfig;
}

export function appPlugins(root: string): Plugin {
  let config: AppConfig | undefined;
  return {
    name: 'shellchat-app-plugins',
    async buildStart() {
      config = await readAppConfig(root);
      for (const id of config.plugins) {
        if (!existsSync(path.join(root, 'plugins', id, 'manifest.ts'))) {
          this.error(`app config names plugin "${id}", but plugins/${id}/manifest.ts does not exist`);
        }
      }
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      config ??= await readAppConfig(root);
      const ids = config.plugins;
      const abs = (...parts: string[]) => JSON.stringify(path.join(root, ...parts));
      const lines: string[] = [];
      ids.forEach((pluginId, i) => lines.push(`import m${i} from ${abs('plugins', pluginId, 'manifest.ts')};`));
      lines.push('export const plugins = [');
      ids.forEach((pluginId, i) =>
        lines.push(`  { manifest: m${i}, load: () => import(${abs('plugins', pluginId, 'browser', 'index.ts')}).then((m) => m.default) },`),
      );
      lines.push('];');
      lines.push('const locales = {');
      const namespaces = ['shell', ...ids];
      for (const lang of readdirSync(path.join(root, 'locales'))) {
        for (const ns of namespaces) {
          if (lang === 'en-US' && ns === 'shell') continue; // bundled with the entry for the first paint
          if (existsSync(path.join(root, 'locales', lang, `${ns}.json`))) {
            lines.push(`  ${JSON.stringify(`${lang}/${ns}`)}: () => import(${abs('locales', lang, `${ns}.json`)}),`);
          }
        }
      }
      lines.push('};');
      lines.push('export function loadLocale(lang, ns) {');
      lines.push('  const load = locales[lang + "/" + ns];');
      lines.push('  return load ? load().then((m) => m.default) : Promise.resolve(undefined);');
      lines.push('}');
      return lines.join('\n');
    },
  };
}
