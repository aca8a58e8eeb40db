// Vite plugin: turns the operator's app config into three virtual modules.
// - `virtual:shellchat/plugins` (in the first paint): the plugins' setting specs, serialized at
//   build time, and lazy loaders for the plugin entries and the locale files.
// - `virtual:shellchat/entries` (loaded with the command runtime): the enabled plugins (eager
//   manifests, lazy client code and docs).
// - `virtual:shellchat/locales` (loaded with the first locale file): a loader per locale file.
//   Not in the first paint: with 18 languages, its table of files costs more than the page's
//   budget has to spare.
// A plugin left out of the config is never imported, so it is absent from the bundle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { AppConfig } from '../app.config.ts';
import type { PluginManifest } from '../src/core/contract.ts';
import { pluginChunkName, pluginFile, pluginOfClientFile } from '../src/core/pluginLayout.ts';
import { appConfigFile, loadAppConfig } from '../src/server/appConfig.ts';

const PLUGINS_ID = 'virtual:shellchat/plugins';
const ENTRIES_ID = 'virtual:shellchat/entries';
const LOCALES_ID = 'virtual:shellchat/locales';

async function pluginsModule(root: string, ids: string[]): Promise<string> {
  const settings = [];
  for (const id of ids) {
    const manifest = (await import(pathToFileURL(path.join(root, pluginFile(id, 'manifest'))).href)).default as PluginManifest;
    settings.push(...(manifest.settings ?? []));
  }
  // The English shell strings the first paint shows (src/shell/shellStrings.ts): its lines and
  // messages; the rest of the file loads after it, as every other locale file does.
  const { msg, ui } = JSON.parse(readFileSync(path.join(root, 'locales', 'en-US', 'shell.json'), 'utf8')) as Record<string, unknown>;
  return [
    `export const settings = ${JSON.stringify(settings)};`,
    `export const firstPaintEnglish = ${JSON.stringify({ msg, ui })};`,
    `export const loadPlugins = () => import(${JSON.stringify(ENTRIES_ID)}).then((m) => m.plugins);`,
    `export const loadLocale = (lang, ns) => import(${JSON.stringify(LOCALES_ID)}).then((m) => m.loadLocale(lang, ns));`,
  ].join('\n');
}

function localesModule(root: string, ids: string[]): string {
  const abs = (...parts: string[]) => JSON.stringify(path.join(root, ...parts));
  const lines = ['const locales = {'];
  // `core`: the messages of the core's server and rules (src/core/serverMessages.ts), loaded with the host.
  const namespaces = ['shell', 'core', ...ids];
  for (const lang of readdirSync(path.join(root, 'locales'))) {
    for (const ns of namespaces) {
      // en-US/shell too: the first paint carries only its `ui` and `msg` (src/shell/shellStrings.ts).
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
}

function entriesModule(root: string, ids: string[]): string {
  const abs = (...parts: string[]) => JSON.stringify(path.join(root, ...parts));
  const lines: string[] = [];
  ids.forEach((id, i) => lines.push(`import m${i} from ${abs(pluginFile(id, 'manifest'))};`));
  lines.push('export const plugins = [');
  ids.forEach((id, i) => {
    const docs = existsSync(path.join(root, pluginFile(id, 'docs')))
      ? `, docs: () => import(${abs(pluginFile(id, 'docs'))}).then((m) => m.default)`
      : '';
    // A server-only plugin (no client part) activates nothing in the page.
    const load = existsSync(path.join(root, pluginFile(id, 'client')))
      ? `() => import(${abs(pluginFile(id, 'client'))}).then((m) => m.default)`
      : '() => Promise.resolve({ activate() {} })';
    lines.push(`  { manifest: m${i}, load: ${load}${docs} },`);
  });
  lines.push('];');
  return lines.join('\n');
}

export function appPlugins(root: string): Plugin {
  let config: AppConfig | undefined;
  return {
    name: 'shellchat-app-plugins',
    async buildStart() {
      config = await loadAppConfig(appConfigFile(process.env, root));
      for (const id of config.plugins) {
        if (!existsSync(path.join(root, pluginFile(id, 'manifest')))) {
          this.error(`app config names plugin "${id}", but plugins/${id}/manifest.ts does not exist`);
        }
      }
    },
    // A plugin's client chunk is named for the plugin, not for its folder ('client', like other chunks).
    outputOptions(options) {
      const fallback = options.chunkFileNames ?? 'assets/[name]-[hash].js';
      return {
        ...options,
        chunkFileNames: (chunk) => {
          const plugin = chunk.facadeModuleId ? pluginOfClientFile(chunk.facadeModuleId) : undefined;
          if (plugin) return `assets/${pluginChunkName(plugin)}-[hash].js`;
          return typeof fallback === 'function' ? fallback(chunk) : fallback;
        },
      };
    },
    resolveId(id) {
      return id === PLUGINS_ID || id === ENTRIES_ID || id === LOCALES_ID ? '\0' + id : undefined;
    },
    async load(id) {
      if (id !== '\0' + PLUGINS_ID && id !== '\0' + ENTRIES_ID && id !== '\0' + LOCALES_ID) return undefined;
      config ??= await loadAppConfig(appConfigFile(process.env, root));
      if (id === '\0' + PLUGINS_ID) return pluginsModule(root, config.plugins);
      return id === '\0' + LOCALES_ID ? localesModule(root, config.plugins) : entriesModule(root, config.plugins);
    },
  };
}
