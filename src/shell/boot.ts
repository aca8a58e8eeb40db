// Boot: settings, i18n and the plugin host, before the first paint. Nothing here waits on the
// network; system info, the connectivity ping, startup plugins and third-party remotes load
// after the first paint (see afterPaint).
import {
  createI18n,
  findLanguage,
  isRtl,
  PING_TIMEOUT_MS,
  SHELL_SETTINGS,
  DEFAULT_LANGUAGE,
  LANGUAGE_CODES,
  type I18n,
  type PluginEntry,
  type SettingSpec,
  type SettingsStore,
  type ShellEvents,
  type SystemInfo,
} from '../core/host/index.ts';
import mitt from 'mitt';
import { ShellController } from './controller.ts';
import { createBrowserSettings } from './settingsStore.ts';
import { loadRestOfEnglish, restOfEnglish } from './shellStrings.ts';

/** How often a page opened without its server asks whether it is back. */
const SERVER_RETRY_MS = 5_000;

export interface Booted {
  controller: ShellController;
  i18n: I18n;
  settings: SettingsStore;
}

function initialLanguage(saved: string): string {
  if (saved && findLanguage(saved)) return saved;
  const browser = globalThis.navigator?.language ?? '';
  return LANGUAGE_CODES.find((c) => c.toLowerCase() === browser.toLowerCase()) ?? DEFAULT_LANGUAGE;
}

function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = isRtl(code) ? 'rtl' : 'ltr';
}

export async function boot(
  pluginSettings: readonly SettingSpec[],
  loadPlugins: () => Promise<PluginEntry[]>,
  loadLocale: (lang: string, ns: string) => Promise<Record<string, unknown> | undefined>,
  firstPaintEnglish: Record<string, unknown>,
): Promise<Booted> {
  const specs = [...SHELL_SETTINGS, ...pluginSettings];
  const settings = await createBrowserSettings(specs);
  const now = Date.now();
  if (!settings.get<number>('_up')) settings.set('_up', now);
  if (!settings.get<number>('session')) {
    settings.set('session', now);
    settings.set('time', now);
  }

  const lang = initialLanguage(settings.get<string>('lang'));
  applyDocumentLanguage(lang);
  const i18n = await createI18n({
    lang,
    namespaces: [],
    load: (l, ns) => (l === 'en-US' && ns === 'shell' ? Promise.resolve(firstPaintEnglish) : loadLocale(l, ns)),
  });
  loadRestOfEnglish(i18n, loadLocale);
  settings.onChange('lang', (_key, value) => {
    const code = initialLanguage(String(value));
    applyDocumentLanguage(code);
    void i18n.changeLanguage(code);
  });

  const events = mitt<ShellEvents>();
  const controller = new ShellController({
    settings,
    events,
    t: i18n.t,
    loadHost: async (c) => {
      const [{ createHost }, plugins] = await Promise.all([import('./runtime.ts'), loadPlugins(), restOfEnglish()]);
      return createHost({ plugins, settings, i18n, events, controller: c });
    },
  });
  return { controller, i18n, settings };
}

async function fetchWithTimeout(url: string, ms: number): Promise<Response> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    return await fetch(url, { signal: abort.signal, credentials: 'same-origin' });
  } finally {
    clearTimeout(timer);
  }
}

/** Work that must not delay the first paint. */
export async function afterPaint({ controller, i18n }: Booted): Promise<void> {
  const hostReady = controller.host();
  // Offline mode: the browser says so, or the ping fails within 2 s (spec part 4).
  const ping = navigator.onLine
    ? fetchWithTimeout('/api/ping', PING_TIMEOUT_MS).then((r) => r.ok, () => false)
    : Promise.resolve(false);
  const [online, fresh] = await Promise.all([ping, fetchSystemInfo()]);
  // The last system info this browser saw serves a page opened without its server: the
  // operator's local model server, texts and placeholder.
  const systemInfo = fresh ? remember(fresh) : recalled();
  controller.setOnline(online);
  if (systemInfo) controller.setSystemInfo(systemInfo);
  window.addEventListener('offline', () => controller.setOnline(false));
  window.addEventListener('online', () => controller.setOnline(true));
  // Opened while the server was down (the page came from the service worker): ask again now and
  // then, so that its features come back with it, without a reload.
  if (!online) void watchForServer(controller);

  const host = await hostReady;
  await host.activateStartup().catch((err: unknown) => console.error('startup plugin failed', err));
  const remotes = systemInfo?.plugins?.remotes ?? [];
  if (remotes.length) {
    const { loadRemotePlugins } = await import('./remotes.ts');
    await loadRemotePlugins(host, controller, i18n, remotes);
  }
  // Once the page is idle, the rest of its code (each plugin's, the chat's, the back view's
  // pages; completion comes with the host, runtime.ts): loaded on first use until now, so a
  // server that went away later took every command not yet used with it, `:help` and `:info`
  // included, and the first question failed without a word. The markdown renderer too: evaluating it (~60 ms) in the first
  // answer's frames was the longest frame of a streamed answer (bench/appStream.ts).
  await whenIdle();
  await Promise.all(
    [host.prefetch(), import('./chat/index.ts'), import('./markdown/index.ts'), import('./components/BackView.tsx')].map((p) =>
      p.catch(() => undefined),
    ),
  );
  // The service worker that lets the app open offline (vite.config.ts), once all is loaded.
  if (import.meta.env.PROD) await navigator.serviceWorker?.register('/sw.js').catch(() => undefined);
}

/** The server's system info (spec part 3), or undefined when it cannot be had. */
function fetchSystemInfo(): Promise<SystemInfo | undefined> {
  return fetchWithTimeout('/api/system/info', 10_000)
    .then((r) => (r.ok ? r.json() : undefined))
    .then((body: { result?: SystemInfo } | undefined) => body?.result, () => undefined);
}

const SYSTEM_INFO_KEY = 'shellchat:systemInfo';

function remember(info: SystemInfo): SystemInfo {
  try {
    localStorage.setItem(SYSTEM_INFO_KEY, JSON.stringify(info));
  } catch {
    // Storage full or disabled: the page works, only not offline at the next load.
  }
  return info;
}

function recalled(): SystemInfo | undefined {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(SYSTEM_INFO_KEY) ?? 'null');
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as SystemInfo) : undefined;
  } catch {
    return undefined;
  }
}

/** While the server cannot be reached, pings it every few seconds; online again once it answers. */
async function watchForServer(controller: ShellController): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SERVER_RETRY_MS));
    if (!navigator.onLine) continue;
    const ok = await fetchWithTimeout('/api/ping', PING_TIMEOUT_MS).then((r) => r.ok, () => false);
    if (!ok) continue;
    const info = await fetchSystemInfo();
    if (info) controller.setSystemInfo(remember(info));
    controller.setOnline(true);
    return;
  }
}

/** Resolves when the browser has nothing better to do (at the latest after 5 s). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 5000 });
    else setTimeout(resolve, 1000);
  });
}
