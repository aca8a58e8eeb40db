// What the environment tells plugins about itself: connectivity, the server, system info.
// The shell (browser), the CLI and the test harness each provide it.
import type { ApiClient } from './api/client.ts';
import { createServiceRef } from './services.ts';

/** GET /api/system/info (spec part 3), as the client uses it. */
export interface SystemInfo {
  model?: string;
  base_url?: string;
  role_content_system?: string;
  welcome_message?: string;
  querying?: string;
  generating?: string;
  searching?: string;
  waiting?: string;
  init_placeholder?: string;
  enter?: string;
  temperature?: number;
  top_p?: number;
  use_node_ai?: boolean;
  use_payment?: boolean;
  use_subscriptions?: boolean;
  use_email?: boolean;
  minimalist?: boolean;
  default_functions?: string;
  default_role?: string;
  default_stores?: string;
  default_node?: string;
  /** Installed plugin ids the server enables, and third-party remotes to load. */
  plugins?: { enabled?: string[]; disabled?: string[]; remotes?: RemotePluginConfig[] };
  demo?: boolean;
  /** The local MCP helper's address (MCP_HELPER_URL), default http://127.0.0.1:11318. */
  mcp_url?: string;
  /** Where the privacy policy's contact link points. */
  contact_email?: string;
  /** The local model server the browser calls directly (OLLAMA_BASE_URL); default http://localhost:11434. */
  ollama_url?: string;
}

export interface RemotePluginConfig {
  /** The Module Federation container name. */
  name: string;
  /** URL of the remote's `remoteEntry.js`. */
  entry: string;
  /** The exposed module holding the plugin, default `./plugin`. */
  module?: string;
}

export interface Platform {
  online(): boolean;
  /** Base URL of the shellchat server ('' when there is none). */
  serverUrl(): string;
  systemInfo(): SystemInfo;
  /** The shellchat server's API, with the login cookie. */
  api: ApiClient;
}

export const PlatformRef = createServiceRef<Platform>('shell.platform');
