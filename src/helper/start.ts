// Wires the helper together: servers from the config file (reloaded when it changes) behind
// the loopback HTTP server. Used by the bin (main.ts) and by the tests.
import { ConfigError, loadServersConfig, type HelperOptions } from './config.ts';
import { startHttp, type RunningHelper } from './http.ts';
import { McpHub, watchConfigFile, type HubOptions } from './servers.ts';

export interface Helper extends RunningHelper {
  hub: McpHub;
  /** Re-reads the config file now (the watcher does this on change). */
  reload(): Promise<void>;
}

export interface StartOptions extends HubOptions {
  /** Debounce for config-file changes (default 300 ms). */
  watchDebounceMs?: number;
  /** Called after each reload attempt (tests wait on it). */
  onReload?: (error?: Error) => void;
}

export async function startHelper(options: HelperOptions, start: StartOptions = {}): Promise<Helper> {
  const log = start.log ?? (() => {});
  const hub = new McpHub(start);
  // A broken file at start-up is fatal; on a later change the old servers keep running.
  await hub.load(await loadServersConfig(options.configPath));
  const http = await startHttp(
    { hub, allowedOrigins: options.allowedOrigins, callTimeoutMs: options.callTimeoutMs },
    options.port,
  );
  const reload = async (): Promise<void> => {
    try {
      await hub.load(await loadServersConfig(options.configPath));
      log(`reloaded ${options.configPath}: ${describeServers(hub)}`);
      start.onReload?.();
    } catch (error) {
      const message = error instanceof ConfigError ? error.message : String(error);
      log(`config not reloaded, keeping the previous servers: ${message}`);
      start.onReload?.(error as Error);
    }
  };
  const watcher = watchConfigFile(options.configPath, () => void reload(), start.watchDebounceMs ?? 300);
  return {
    ...http,
    hub,
    reload,
    async close() {
      watcher.close();
      await http.close();
      await hub.close();
    },
  };
}

export function describeServers(hub: McpHub): string {
  const servers = hub.servers();
  if (servers.length === 0) return 'no servers';
  return servers.map((server) => `${server.name} (${server.tools} tools)`).join(', ');
}
