// Storybook for the shell components. It must build offline: no telemetry, no update checks,
// no addons fetched from the network (the essentials ship inside `storybook` itself).
import path from 'node:path';
import type { StorybookConfig } from '@storybook/react-vite';
import type { PluginOption } from 'vite';
import { appPlugins } from '../scripts/appPluginsVite.ts';

const root = path.resolve(import.meta.dirname, '..');
const APP_PLUGINS = 'shellchat-app-plugins';

/** True if a (possibly nested or async) Vite plugin list already holds the named plugin. */
async function hasPlugin(plugins: PluginOption[], name: string): Promise<boolean> {
  for (const plugin of await Promise.all(plugins)) {
    if (Array.isArray(plugin) ? await hasPlugin(plugin, name) : plugin && 'name' in plugin && plugin.name === name) {
      return true;
    }
  }
  return false;
}

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/shell/**/*.stories.tsx'],
  addons: [],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
    // project.json is only uploaded as telemetry metadata; nothing reads it offline.
    disableProjectJson: true,
  },
  // The builder already merges vite.config.ts (react + appPlugins). The decorator imports
  // `virtual:shellchat/plugins`, so add appPlugins if a different vite config left it out.
  async viteFinal(viteConfig) {
    const plugins = viteConfig.plugins ?? [];
    if (!(await hasPlugin(plugins, APP_PLUGINS))) viteConfig.plugins = [...plugins, appPlugins(root)];
    return viteConfig;
  },
};

export default config;
