// The local MCP helper as the browser sees it (spec part 7, "Local helpers"): a service the
// function plugin provides. Absent or down, the lists are empty and nothing is reported.
import { createServiceRef } from './services.ts';

export interface McpTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

export interface McpClient {
  /** GET / answers 'Simple MCP is running.' within 300 ms. */
  available(): Promise<boolean>;
  /** GET /tool/list; empty when the helper is absent. */
  tools(): Promise<McpTool[]>;
  /** POST /tool/call {tool, args}; the result as text. Times out after 60 s. */
  call(tool: string, args: unknown, signal?: AbortSignal): Promise<string>;
}

export const McpRef = createServiceRef<McpClient>('function.mcp');

/** The helper's fixed local address (spec part 7); operators may point elsewhere. */
export const DEFAULT_MCP_HELPER_URL = 'http://127.0.0.1:11318';
export const MCP_HEALTH_TEXT = 'Simple MCP is running.';
