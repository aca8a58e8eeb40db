// The MCP servers the helper bridges to: one SDK Client per configured server (stdio or
// streamable HTTP), their tools under one list, calls with a timeout, and reloads when the
// servers file changes. Server env and headers stay inside this process.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { secretValues, type ServerConfig, type ServersConfig } from './config.ts';

export interface HelperTool {
  /** The name the browser sees: the server's own name, or `<server>_<tool>` on a clash. */
  name: string;
  description?: string;
  /** The tool's inputSchema (JSON Schema). */
  parameters?: Record<string, unknown>;
}

interface Entry extends HelperTool {
  server: string;
  original: string;
}

interface Connection {
  name: string;
  client: Client;
  tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
  closed: boolean;
}

export interface HubOptions {
  /** Where stdio servers' stderr goes (default 'inherit'). */
  stderr?: 'inherit' | 'ignore';
  /** Startup limit per server: connect plus tool listing (default 60 s). */
  connectTimeoutMs?: number;
  log?: (line: string) => void;
}

export class ToolCallError extends Error {
  override name = 'ToolCallError';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

const SDK_REQUEST_TIMEOUT = -32001;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function makeTransport(config: ServerConfig, stderr: 'inherit' | 'ignore'): Transport {
  if (config.kind === 'stdio') {
    return new StdioClientTransport({
      command: config.command,
      args: config.args,
      // Only a minimal safe environment is inherited; the configured variables are added.
      env: { ...getDefaultEnvironment(), ...config.env },
      stderr,
      ...(config.cwd ? { cwd: config.cwd } : {}),
    });
  }
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
}

/** Text of a tool result: text parts joined by newlines; other parts summarized. */
export function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  const parts: string[] = [];
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'resource' && typeof part.resource === 'object' && part.resource !== null) {
      const resource = part.resource as Record<string, unknown>;
      parts.push(typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}]`);
    } else if (part.type === 'resource_link') parts.push(`[resource ${String(part.uri)}]`);
    else if (part.type === 'image' || part.type === 'audio') parts.push(`[${part.type} ${String(part.mimeType)}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (parts.length === 0 && 'toolResult' in result) return JSON.stringify(result.toolResult);
  return parts.join('\n');
}

export class McpHub {
  private connections: Connection[] = [];
  private entries = new Map<string, Entry>();
  private secrets: string[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly stderr: 'inherit' | 'ignore';
  private readonly connectTimeoutMs: number;
  private readonly log: (line: string) => void;

  constructor(options: HubOptions = {}) {
    this.stderr = options.stderr ?? 'inherit';
    this.connectTimeoutMs = options.connectTimeoutMs ?? 60_000;
    this.log = options.log ?? (() => {});
  }

  /** Connects to the configured servers, then closes the previous ones. Serialized. */
  load(config: ServersConfig): Promise<void> {
    const next = this.queue.then(() => this.swap(config));
    this.queue = next.catch(() => {});
    return next;
  }

  private async swap(config: ServersConfig): Promise<void> {
    const connected = await Promise.all(Object.entries(config).map(([name, server]) => this.connect(name, server)));
    const old = this.connections;
    this.connections = connected.filter((item): item is Connection => item !== null);
    this.secrets = secretValues(config);
    this.rebuild();
    await Promise.all(old.map((connection) => this.closeConnection(connection)));
  }

  private async connect(name: string, config: ServerConfig): Promise<Connection | null> {
    const client = new Client({ name: 'shellchat-mcp', version: '0.1.0' });
    const connection: Connection = { name, client, tools: [], closed: false };
    try {
      await withTimeout(
        (async () => {
          await client.connect(makeTransport(config, this.stderr));
          let cursor: string | undefined;
          do {
            const page = await client.listTools(cursor ? { cursor } : undefined);
            for (const tool of page.tools) {
              connection.tools.push({
                name: tool.name,
                ...(tool.description ? { description: tool.description } : {}),
                inputSchema: tool.inputSchema as Record<string, unknown>,
              });
            }
            cursor = page.nextCursor;
          } while (cursor);
        })(),
        this.connectTimeoutMs,
        `server "${name}"`,
      );
    } catch (error) {
      // The message comes from the SDK or the spawn; it names the server, not its env.
      this.log(`server "${name}" failed to start: ${this.redact((error as Error).message)}`);
      await client.close().catch(() => {});
      return null;
    }
    client.onclose = () => {
      if (connection.closed) return;
      connection.closed = true;
      this.log(`server "${name}" disconnected`);
      this.rebuild();
    };
    return connection;
  }

  private async closeConnection(connection: Connection): Promise<void> {
    connection.closed = true;
    await connection.client.close().catch(() => {});
  }

  private rebuild(): void {
    const live = this.connections.filter((connection) => !connection.closed);
    const counts = new Map<string, number>();
    for (const connection of live) for (const tool of connection.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
    const entries = new Map<string, Entry>();
    for (const connection of live) {
      for (const tool of connection.tools) {
        const clash = (counts.get(tool.name) ?? 0) > 1;
        const name = clash ? `${connection.name.replace(/[^A-Za-z0-9_-]/g, '_')}_${tool.name}` : tool.name;
        entries.set(name, {
          name,
          ...(tool.description ? { description: tool.description } : {}),
          parameters: tool.inputSchema,
          server: connection.name,
          original: tool.name,
        });
      }
    }
    this.entries = entries;
  }

  /** The tools of every connected server, as the browser sees them. */
  tools(): HelperTool[] {
    return [...this.entries.values()].map(({ name, description, parameters }) => ({
      name,
      ...(description ? { description } : {}),
      ...(parameters ? { parameters } : {}),
    }));
  }

  /** Which servers are connected, with their tool counts (for the bin's start-up report). */
  servers(): { name: string; tools: number }[] {
    return this.connections.filter((c) => !c.closed).map((c) => ({ name: c.name, tools: c.tools.length }));
  }

  /** Removes every configured secret value from text that leaves the helper. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }

  /** Calls a tool; resolves to its text, rejects with a ToolCallError (status for the HTTP answer). */
  async call(tool: string, args: unknown, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    const entry = this.entries.get(tool);
    if (!entry) throw new ToolCallError(`Unknown tool: ${tool}`, 404);
    const connection = this.connections.find((item) => item.name === entry.server && !item.closed);
    if (!connection) throw new ToolCallError(`Server for tool ${tool} is not connected`, 502);
    const argumentsObject =
      typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    let result: Record<string, unknown>;
    try {
      result = (await connection.client.callTool({ name: entry.original, arguments: argumentsObject }, undefined, {
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      })) as Record<string, unknown>;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === SDK_REQUEST_TIMEOUT) throw new ToolCallError(`Tool ${tool} timed out after ${timeoutMs} ms`, 504);
      throw new ToolCallError(this.redact(`Tool ${tool} failed: ${(error as Error).message}`), 502);
    }
    const text = this.redact(resultText(result));
    if (result.isError === true) throw new ToolCallError(text || `Tool ${tool} reported an error`, 200);
    return text;
  }

  async close(): Promise<void> {
    await this.queue;
    const old = this.connections;
    this.connections = [];
    this.rebuild();
    await Promise.all(old.map((connection) => this.closeConnection(connection)));
  }
}

/**
 * Calls onChange (debounced) when the file changes. Watches the directory, so editors that
 * replace the file, and a file created later, are seen too.
 */
export function watchConfigFile(path: string, onChange: () => void, debounceMs = 300): { close(): void } {
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), (_event, filename) => {
      if (filename !== null && filename !== name) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    });
  } catch {
    return { close() {} };
  }
  watcher.on('error', () => {});
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
