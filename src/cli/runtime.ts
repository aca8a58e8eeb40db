// The CLI's shell: the same plugin host, manifests, handlers, translations and API client as the
// browser, with settings and the login cookie kept in the profile (profile.ts) and the chat
// answered by the same turn client (src/core/turn).
import { existsSync } from 'node:fs';
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
  type SystemInfo,
  type Translate,
} from '../core/host/index.ts';
import { TerminalRef } from '../core/index.ts';
import type { CliControl } from './control.ts';
import { withRunOnly } from './flags.ts';
import type { Profile } from './profile.ts';
import { createReach, type Reach } from './reach.ts';
import { NO_CLIENT, pluginFile } from '../core/pluginLayout.ts';
import { appConfigFile, loadAppConfig } from '../server/appConfig.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * fetch with the login cookie, kept in the profile so the next run is still logged in; with an
 * API key, the key instead (`Authorization: Bearer`), and the profile's login is left alone.
 */
function profileFetch(profile: Profile, apiKey?: string): typeof fetch {
  const cookies = new Map<string, string>(apiKey ? [] : Object.entries(profile.readJson<Record<string, string>>('login.json', {})));
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    // The server knows a terminal client by this (the plus plan's gate, spec part 6).
    headers.set('x-shellchat-client', 'cli');
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    const set = apiKey ? [] : response.headers.getSetCookie();
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

/** The built-in plugins of the app config (src/server/appConfig.ts), their common handlers loaded on use. */
async function builtins(env: NodeJS.ProcessEnv): Promise<PluginEntry[]> {
  const config = await loadAppConfig(appConfigFile(env));
  return Promise.all(
    config.plugins.map(async (id) => ({
      manifest: (await import(path.join(ROOT, pluginFile(id, 'manifest')))).default as PluginManifest,
      load: async () => (existsSync(path.join(ROOT, pluginFile(id, 'client'))) ? ((await import(path.join(ROOT, pluginFile(id, 'client')))).default as PluginModule) : NO_CLIENT),
    })),
  );
}

/** How long the start waits for the server's system info (its default model) before going on without it. */
const SYSTEM_INFO_WAIT_MS = 5_000;

/** The server's system info (its default model, for the prompt and `:info`), or {} when it does not answer. */
/** The account an API key acts for (this run only: the profile's login stays as it was), or the server's refusal. */
async function keyUser(server: string, fetcher: typeof fetch): Promise<{ username: string } | string> {
  try {
    const response = await fetcher(`${server}/api/user/info`, { signal: AbortSignal.timeout(SYSTEM_INFO_WAIT_MS) });
    const body = (await response.json()) as { success?: boolean; error?: string; result?: { username?: string } };
    return body.success && body.result?.username ? { username: body.result.username } : (body.error ?? `The server answered ${response.status}.`);
  } catch (err) {
    return `The server did not answer: ${(err as Error).message}`;
  }
}

async function loadSystemInfo(server: string, fetcher: typeof fetch): Promise<SystemInfo> {
  try {
    const response = await fetcher(`${server}/api/system/info`, { signal: AbortSignal.timeout(SYSTEM_INFO_WAIT_MS) });
    return response.ok ? (((await response.json()) as { result?: SystemInfo }).result ?? {}) : {};
  } catch {
    return {};
  }
}

/**
 * The translations, with the terminal's own words where the browser's would be wrong: a
 * server that cannot be reached is said as such (which one, and why), not 'You are offline.'.
 */
function cliTranslator(tFor: (ns: string) => Translate, reach: Reach): (ns: string) => Translate {
  return (ns) => {
    const t = tFor(ns);
    if (ns === 'shell') return (key, vars) => (key === 'msg.offline' && reach.failure ? reach.said(tFor('cli')) : t(key, vars));
    if (ns === 'info') return (key, vars) => (key === 'info.offline' && reach.failure ? tFor('cli')('reach.status', { reason: reach.reason(tFor('cli')) }) : t(key, vars));
    return t;
  };
}

export type ChatRunner = (parsed: Extract<ParsedLine, { kind: 'chat' }>, signal: AbortSignal) => Promise<Output[]>;

export async function openRuntime(options: {
  server: string;
  profile: Profile;
  env: NodeJS.ProcessEnv;
  control: CliControl;
  chat: (session: CliRuntime) => ChatRunner;
  /** An API key instead of the profile's login (SHELLCHAT_API_KEY, --key). */
  apiKey?: string;
}) {
  const { profile } = options;
  const plugins = await builtins(options.env);
  const specs = [...SHELL_SETTINGS, ...plugins.flatMap((p) => p.manifest.settings ?? [])];
  const stored = profile.readJson<Record<string, SettingValue>>('settings.json', {});
  // What is saved, and what this run uses: the saved values under the flags' (flags.ts).
  const saved = createMemorySettings(specs, stored);
  const settings = withRunOnly(saved);
  // A first run (or a profile from another server) starts a session, as the browser does at load.
  if (!(settings.get<number>('session') > SESSION_ID_MIN)) resetSession(settings);
  // Settings persist as the browser's localStorage does (the login cookie separately, 0600).
  const persist = () => profile.writeJson('settings.json', Object.fromEntries(specs.map((s) => [s.key, saved.get(s.key)])));
  const language = () => settings.get<string>('lang') || 'en-US';
  const i18n = await createI18n({ lang: language(), namespaces: ['shell', 'core', 'cli'], load: loadLocale });
  // `:lang use`, `:lang reset` or the account's settings at login change the language at once,
  // as in the browser; the host waits for its translations before it says a command's outputs.
  settings.onChange('lang', () => void i18n.changeLanguage(language()));
  const reach = createReach(options.server);
  const api = createApiClient({ baseUrl: options.server, fetch: reach.track(profileFetch(profile, options.apiKey)) });
  let systemInfo: SystemInfo = {};
  const identity = () => (settings.get<string>('user') ? { loggedIn: true, username: settings.get<string>('user') } : { loggedIn: false });
  let runner: ChatRunner | undefined;
  const host: PluginHost = new PluginHost({
    env: 'cli',
    plugins,
    settings,
    translator: cliTranslator((ns) => i18n.tFor(ns), reach),
    loadNamespace: (ns) => i18n.loadNamespaces([ns]),
    languageReady: () => i18n.ready(),
    identity,
    // No `online`: every command tries the server (a terminal has no offline mode to fall back
    // to), and one it could not reach says which server and why (cliTranslator).
    onChat: (parsed, signal) => runner!(parsed, signal),
    onFunction: (parsed) => runFunctionCalls(host, parsed),
  });
  host.services.provide(PlatformRef, { online: () => reach.ok !== false, serverUrl: () => options.server, systemInfo: () => systemInfo, api });
  host.services.provide(TerminalRef, options.control);
  // With an API key, the server's refusal of it (revoked, expired, unknown), said before anything runs.
  let keyRefusal: string | undefined;
  const session = { host, settings, i18n, api, persist, reach, systemInfo: () => systemInfo, server: options.server, control: options.control, keyRefusal: () => keyRefusal };
  runner = options.chat(session as CliRuntime);
  // Plugins that start with the shell (the user's sync with the server) and the server's system
  // info (its default model): the flags, the first prompt and a command wait for them (`ready`).
  const ready = Promise.all([
    host.activateStartup().catch(() => undefined),
    loadSystemInfo(options.server, api.fetch).then((info) => void (systemInfo = info)),
    options.apiKey ? keyUser(options.server, api.fetch).then((found) => (typeof found === 'string' ? void (keyRefusal = found) : settings.runOnly('user', found.username))) : undefined,
  ]).then(() => undefined);
  return { ...session, ready };
}

export type CliRuntime = Awaited<ReturnType<typeof openRuntime>>;
