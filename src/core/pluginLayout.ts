// Where a plugin's parts are, relative to the repository (DESIGN.md §1), for what loads plugins:
// the app's build (scripts/appPluginsVite.ts), the terminal client (src/cli/runtime.ts), the
// test harness (tests/harness/shellTester.ts) and the authorization matrix
// (tests/security/authzSupport.ts).

/** `client/index.ts` serves every client: the page and the terminal. A server-only plugin has none. */
export const PLUGIN_PARTS = {
  manifest: 'manifest.ts',
  client: 'client/index.ts',
  server: 'server/index.ts',
  /** The server plugin's own environment variables (a PluginEnv, src/core/envVars.ts), read before it starts. */
  env: 'server/env.ts',
  docs: 'docs.ts',
  /** Its rows of the authorization matrix (tests/security/authzSupport.ts). */
  authz: 'authz.ts',
} as const;

export type PluginPart = keyof typeof PLUGIN_PARTS;

/** The path of part `part` of plugin `id`, from the repository's root. */
export const pluginFile = (id: string, part: PluginPart): string => `plugins/${id}/${PLUGIN_PARTS[part]}`;

/** A plugin's client code is built into `assets/plugin-<id>-<hash>.js`, where it reads as the plugin's. */
export const pluginChunkName = (id: string): string => `plugin-${id}`;

/** The plugin whose client part `file` (an absolute or relative module path) is, if any. */
export function pluginOfClientFile(file: string): string | undefined {
  const match = /(?:^|\/)plugins\/([^/]+)\/(.+)$/.exec(file.replaceAll('\\', '/'));
  return match && match[2] === PLUGIN_PARTS.client ? match[1] : undefined;
}

/** What a plugin without a client part (a server-only one, e.g. metrics) activates in a client. */
export const NO_CLIENT = { activate: (): void => undefined };
