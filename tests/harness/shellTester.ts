// createShellTester: runs commands through the real plugin host, with the real manifests and
// en-US (or another) locale files, an in-memory settings store and fake platform pieces.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createApiClient,
  createI18n,
  createMemorySettings,
  outputToText,
  PlatformRef,
  PluginHost,
  runFunctionCalls,
  SHELL_SETTINGS,
  type DocsContribution,
  type Env,
  type Identity,
  type Output,
  type PluginEntry,
  type PluginManifest,
  type PluginModule,
  type SystemInfo,
} from '../../src/core/host/index.ts';
import appConfig from '../../app.config.ts';
import { NO_CLIENT, pluginFile } from '../../src/core/pluginLayout.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function loadLocale(lang: string, ns: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(path.join(ROOT, 'locales', lang, `${ns}.json`), 'utf8'));
  } catch {
    return undefined;
  }
}

export async function loadManifest(id: string): Promise<PluginManifest> {
  return (await import(path.join(ROOT, pluginFile(id, 'manifest')))).default as PluginManifest;
}

/** A built-in plugin with its client entry, or with a test module in its place. */
export async function builtinPlugin(id: string, module?: PluginModule): Promise<PluginEntry> {
  const manifest = await loadManifest(id);
  const load = module
    ? async () => module
    : existsSync(path.join(ROOT, pluginFile(id, 'client')))
      ? async () => (await import(path.join(ROOT, pluginFile(id, 'client')))).default as PluginModule
      : async () => NO_CLIENT;
  const docsFile = path.join(ROOT, pluginFile(id, 'docs'));
  const docs = existsSync(docsFile) ? async () => (await import(docsFile)).default as DocsContribution : undefined;
  return { manifest, load, ...(docs ? { docs } : {}) };
}

export interface ShellTesterOptions {
  plugins?: (string | PluginEntry)[];
  env?: Env;
  lang?: string;
  identity?: Identity;
  online?: boolean;
  settings?: Record<string, unknown>;
  systemInfo?: SystemInfo;
  /** A running shellchat server the API client talks to (with its own cookie jar). */
  serverUrl?: string;
}

/** fetch with a cookie jar, as a browser keeps the login cookie between requests. */
export function cookieFetch(): typeof fetch & { cookies: Map<string, string> } {
  const cookies = new Map<string, string>();
  const wrapped = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=');
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || !value) cookies.delete(name!.trim());
      else cookies.set(name!.trim(), value.trim());
    }
    return response;
  }) as typeof fetch & { cookies: Map<string, string> };
  wrapped.cookies = cookies;
  return wrapped;
}

export interface RunOutcome {
  outputs: Output[];
  /** Every output rendered as plain text, joined by newlines. */
  text: string;
  errors: string[];
  remember: boolean;
}

export async function createShellTester(options: ShellTesterOptions = {}) {
  const entries = await Promise.all(
    (options.plugins ?? appConfig.plugins).map((p) => (typeof p === 'string' ? builtinPlugin(p) : p)),
  );
  const manifests = entries.map((e) => e.manifest);
  const settings = createMemorySettings(
    [...SHELL_SETTINGS, ...manifests.flatMap((m) => m.settings ?? [])],
    options.settings,
  );
  const i18n = await createI18n({ lang: options.lang ?? 'en-US', namespaces: [], load: loadLocale });
  let online = options.online ?? true;
  // The identity follows the local `user` setting, as in the browser, unless a test fixes it.
  const identity = () => options.identity ?? (settings.get<string>('user') ? { loggedIn: true, username: settings.get<string>('user') } : { loggedIn: false });
  const host = new PluginHost({
    env: options.env ?? 'browser',
    plugins: entries,
    settings,
    translator: (ns) => i18n.tFor(ns),
    loadNamespace: (ns) => i18n.loadNamespaces([ns]),
    languageReady: () => i18n.ready(),
    identity,
    online: () => online,
    onFunction: (parsed) => runFunctionCalls(host, parsed),
  });
  const jar = cookieFetch();
  host.services.provide(PlatformRef, {
    online: () => online,
    serverUrl: () => options.serverUrl ?? 'http://localhost:3000',
    systemInfo: () => options.systemInfo ?? {},
    api: createApiClient({ baseUrl: options.serverUrl ?? 'http://127.0.0.1:9', fetch: jar }),
  });
  return {
    host,
    settings,
    i18n,
    cookies: jar.cookies,
    events: host.events,
    setOnline(value: boolean) {
      online = value;
    },
    async run(line: string): Promise<RunOutcome> {
      const result = await host.run(line);
      return {
        outputs: result.outputs,
        text: result.outputs.map(outputToText).filter(Boolean).join('\n'),
        errors: result.outputs.flatMap((o) => (o.kind === 'error' ? [o.text] : [])),
        remember: result.remember,
      };
    },
  };
}
