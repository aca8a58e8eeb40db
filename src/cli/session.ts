// The CLI's shell: the same plugin host, manifests, handlers, translations and API client as the
// browser, with settings and the login cookie kept in the profile (profile.ts) and the chat
// answered through the same generation client (src/core/api).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createApiClient,
  createI18n,
  createMemorySettings,
  PlatformRef,
  PluginHost,
  resetSession,
  SESSION_ID_MIN,
  runFunctionCalls,
  SHELL_SETTINGS,
  type Output,
  type ParsedLine,
  type PluginEntry,
  type PluginManifest,
  type PluginModule,
  type SettingValue,
} from '../core/host/index.ts';
import { TerminalRef } from '../core/index.ts';
import type { CliControl } from './control.ts';
import type { Profile } from './profile.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** fetch with the login cookie, kept in the profile so the next run is still logged in. */
function profileFetch(profile: Profile): typeof fetch {
  const cookies = new Map<string, string>(Object.entries(profile.readJson<Record<string, string>>('login.json', {})));
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    // The server knows a terminal client by this (the plus plan's gate, spec part 6).
    headers.set('x-shellchat-client', 'cli');
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    const set = response.headers.getSetCookie();
    if (set.length) {
      for (const line of set) {
        const [pair, ...attributes] = line.split(';');
        const [name, value] = pair!.split('=');
        const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
        if (expired || !value) cookies.delete(name!.trim());
        else cookies.set(name!.trim(), value.trim());
      }
      profile.writeJson('login.json', Object.fromEntries(cookies));
    }
    return response;
  }) as typeof fetch;
}

async function loadLocale(lang: string, ns: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(path.join(ROOT, 'locales', lang, `${ns}.json`), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The built-in plugins of app.config.ts (SHELLCHAT_APP_CONFIG), their common handlers loaded on use. */
async function builtins(env: NodeJS.ProcessEnv): Promise<PluginEntry[]> {
  const config = (await import(env.SHELLCHAT_APP_CONFIG || path.join(ROOT, 'app.config.ts'))).default as { plugins: string[] };
  return Promise.all(
    config.plugins.map(async (id) => ({
      manifest: (await import(path.join(ROOT, 'plugins', id, 'manifest.ts'))).default as PluginManifest,
      load: async () => (await import(path.join(ROOT, 'plugins', id, 'browser', 'index.ts'))).default as PluginModule,
    })),
  );
}

export type ChatRunner = (parsed: Extract<ParsedLine, { kind: 'chat' }>, signal: AbortSignal) => Promise<Output[]>;

export async function openSession(options: {
  server: string;
  profile: Profile;
  env: NodeJS.ProcessEnv;
  control: CliControl;
  chat: (session: CliSession) => ChatRunner;
}) {
  const { profile } = options;
  const plugins = await builtins(options.env);
  const specs = [...SHELL_SETTINGS, ...plugins.flatMap((p) => p.manifest.settings ?? [])];
  const stored = profile.readJson<Record<string, SettingValue>>('settings.json', {});
  const settings = createMemorySettings(specs, stored);
  // A first run (or a profile from another server) starts a session, as the browser does at load.
  if (!(settings.get<number>('session') > SESSION_ID_MIN)) resetSession(settings);
  // Settings persist as the browser's localStorage does (the login cookie separately, 0600).
  const persist = () => profile.writeJson('settings.json', Object.fromEntries(specs.map((s) => [s.key, settings.get(s.key)])));
  const i18n = await createI18n({ lang: settings.get<string>('lang') || 'en-US', namespaces: ['shell', 'core'], load: loadLocale });
  const api = createApiClient({ baseUrl: options.server, fetch: profileFetch(profile) });
  const identity = () => (settings.get<string>('user') ? { loggedIn: true, username: settings.get<string>('user') } : { loggedIn: false });
  let runner: ChatRunner | undefined;
  const host: PluginHost = new PluginHost({
    env: 'cli',
    plugins,
    settings,
    translator: (ns) => i18n.tFor(ns),
    loadNamespace: (ns) => i18n.loadNamespaces([ns]),
    languageReady: () => i18n.ready(),
    identity,
    online: () => true,
    onChat: (parsed, signal) => runner!(parsed, signal),
    onFunction: (parsed) => runFunctionCalls(host, parsed),
  });
  host.services.provide(PlatformRef, { online: () => true, serverUrl: () => options.server, systemInfo: () => ({}), api });
  host.services.provide(TerminalRef, options.control);
  const session = { host, settings, i18n, api, persist, server: options.server, control: options.control };
  runner = options.chat(session as CliSession);
  // Plugins that start with the shell (the user's sync with the server) start as the prompt
  // shows, not before it; a command waits for them (`ready`).
  const ready = host.activateStartup().catch(() => undefined);
  return { ...session, ready };
}

export type CliSession = Awaited<ReturnType<typeof openSession>>;
