// Every story renders inside the real shell services (settings, i18n, controller and host),
// built fresh per story so one story's clicks never leak into the next.
import type { Decorator, Loader, Preview } from '@storybook/react-vite';
import mitt from 'mitt';
import { Suspense, useEffect, type ReactNode } from 'react';
import { loadLocale, loadPlugins, settings as pluginSettings } from 'virtual:shellchat/plugins';
import enShell from '../locales/en-US/shell.json';
import {
  createI18n,
  createMemorySettings,
  SHELL_SETTINGS,
  THEMES,
  type SettingValue,
  type ShellEvents,
} from '../src/core/host/index.ts';
import { ShellContext, useSetting, useShell, type ShellServices } from '../src/shell/context.tsx';
import { ShellController, type ShellState } from '../src/shell/controller.ts';
import { createHost } from '../src/shell/runtime.ts';
import '../src/shell/styles.css';

/** What a story may set, as `parameters: { shell: { ... } satisfies ShellParameters }`. */
export interface ShellParameters {
  /** Patched onto the controller's initial state: outputs, stats, evaluation, view, page, systemInfo... */
  state?: Partial<ShellState>;
  /** Initial values of the in-memory settings, e.g. `{ useStats: true, user: 'ada' }`. The theme
   *  is not one of them: it follows the toolbar, so a story sets `globals: { theme: 'dark' }`. */
  settings?: Record<string, SettingValue>;
  /** Skip the themed `.shell` wrapper, for components (App) that render their own. */
  bare?: boolean;
}

async function createShell(params: ShellParameters, theme: string): Promise<ShellServices> {
  const specs = [...SHELL_SETTINGS, ...pluginSettings];
  const settings = createMemorySettings(specs, { ...params.settings, theme });
  // Same loader as boot.ts: en-US/shell is bundled, everything else comes from the virtual module.
  const i18n = await createI18n({
    lang: 'en-US',
    namespaces: [],
    load: (lang, ns) => (lang === 'en-US' && ns === 'shell' ? Promise.resolve(enShell) : loadLocale(lang, ns)),
  });
  const events = mitt<ShellEvents>();
  const controller = new ShellController({
    settings,
    events,
    t: i18n.t,
    loadHost: async (c) => createHost({ plugins: await loadPlugins(), settings, i18n, events, controller: c }),
  });
  if (params.state) controller.state.set(params.state);
  // Load the host up front so host-backed pages (documentation, settings) render without a fallback.
  await controller.host();
  return { controller, settings, i18n };
}

const themeOf = (globals: Record<string, unknown>) => String(globals.theme ?? 'light');

const loadShell: Loader = async ({ parameters, globals }) => ({
  shell: await createShell((parameters.shell ?? {}) as ShellParameters, themeOf(globals)),
});

/** Keeps the theme setting in step with the toolbar global, so both App and ShellFrame follow it. */
function ThemeSync({ theme }: { theme: string }) {
  const { settings } = useShell();
  useEffect(() => settings.set('theme', theme), [settings, theme]);
  return null;
}

/** The `.shell` element the CSS variables hang on; it follows the theme setting (as App does). */
function ShellFrame({ children }: { children: ReactNode }) {
  return (
    <div className="shell" data-theme={useSetting<string>('theme')} style={{ padding: 16 }}>
      {children}
    </div>
  );
}

const withShell: Decorator = (Story, { loaded, globals, parameters }) => {
  const story = (
    <Suspense fallback={null}>
      <Story />
    </Suspense>
  );
  return (
    <ShellContext.Provider value={loaded.shell as ShellServices}>
      <ThemeSync theme={themeOf(globals)} />
      {(parameters.shell as ShellParameters | undefined)?.bare ? story : <ShellFrame>{story}</ShellFrame>}
    </ShellContext.Provider>
  );
};

const preview: Preview = {
  loaders: [loadShell],
  decorators: [withShell],
  // The themed `.shell` fills the canvas, so Storybook's own padding would show as a white frame.
  parameters: { layout: 'fullscreen' },
  globalTypes: {
    theme: {
      description: 'Shell theme (data-theme)',
      toolbar: { title: 'Theme', icon: 'paintbrush', items: [...THEMES], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
};

export default preview;
