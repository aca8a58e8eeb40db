// The local MCP helper's settings: command-line flags and environment, and the servers file in
// the common `{ "mcpServers": { name: {command, args, env} | {url, headers} } }` format.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export const DEFAULT_HELPER_PORT = 11318;
export const DEFAULT_ALLOWED_ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:3000'];
/** Spec part 9: a tool call times out after 60 s. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export interface HelperOptions {
  configPath: string;
  port: number;
  allowedOrigins: string[];
  callTimeoutMs: number;
}

export interface StdioServerConfig {
  kind: 'stdio';
  command: string;
  args: string[];
  /** Extra variables for the server process; secrets, never sent out by the helper. */
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpServerConfig {
  kind: 'http';
  url: string;
  /** Extra request headers (e.g. Authorization); secrets, never sent out by the helper. */
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;
export type ServersConfig = Record<string, ServerConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const USAGE = `Usage: shellchat-mcp [--config <file>] [--port <n>] [--origin <app origin>]...

  --config <file>   servers file in the mcpServers format (default ~/.shellchat/mcp.json, env MCP_CONFIG)
  --port <n>        port on 127.0.0.1 (default ${DEFAULT_HELPER_PORT}, env MCP_PORT)
  --origin <url>    an app origin allowed to call the helper; repeatable
                    (default ${DEFAULT_ALLOWED_ORIGINS.join(' and ')}, env MCP_ALLOWED_ORIGINS, comma-separated)
  --help            this text`;

/** Normalizes an origin the way browsers send it: scheme://host[:port], lower case, no path. */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`Not an origin: "${value}" (expected e.g. http://localhost:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`Not an http(s) origin: "${value}"`);
  }
  return url.origin;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): HelperOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        origin: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values } = parsed;
  if (values.help) return 'help';

  const configPath = values.config ?? env.MCP_CONFIG ?? join(homedir(), '.shellchat', 'mcp.json');
  const portText = values.port ?? env.MCP_PORT ?? String(DEFAULT_HELPER_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(`--port must be a whole number from 1 to 65535, got "${portText}"`);
  }
  const originList =
    values.origin && values.origin.length > 0
      ? values.origin
      : env.MCP_ALLOWED_ORIGINS
        ? env.MCP_ALLOWED_ORIGINS.split(',').filter((item) => item.trim() !== '')
        : DEFAULT_ALLOWED_ORIGINS;
  const allowedOrigins = [...new Set(originList.map(normalizeOrigin))];
  return { configPath, port, allowedOrigins, callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new ConfigError(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    // Never quote the value: it is usually a secret.
    if (typeof item !== 'string') throw new ConfigError(`${where}.${key} must be a string`);
    out[key] = item;
  }
  return out;
}

/** Parses the servers file's text; errors name the file and the faulty entry, never a value. */
export function parseServersConfig(text: string, source = 'config'): ServersConfig {
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) throw new ConfigError(`${source}: expected an object with "mcpServers"`);
  const servers = data.mcpServers ?? {};
  if (!isRecord(servers)) throw new ConfigError(`${source}: "mcpServers" must be an object`);
  const out: ServersConfig = {};
  for (const [name, entry] of Object.entries(servers)) {
    const where = `${source}: mcpServers.${name}`;
    if (!isRecord(entry)) throw new ConfigError(`${where} must be an object`);
    if (entry.disabled === true) continue;
    if (typeof entry.command === 'string' && entry.command !== '') {
      const args = entry.args ?? [];
      if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
        throw new ConfigError(`${where}.args must be an array of strings`);
      }
      if (entry.cwd !== undefined && typeof entry.cwd !== 'string') {
        throw new ConfigError(`${where}.cwd must be a string`);
      }
      out[name] = {
        kind: 'stdio',
        command: entry.command,
        args: args as string[],
        env: stringMap(entry.env, `${where}.env`),
        ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
      };
    } else if (typeof entry.url === 'string' && entry.url !== '') {
      let url: URL;
      try {
        url = new URL(entry.url);
      } catch {
        throw new ConfigError(`${where}.url is not a valid URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ConfigError(`${where}.url must be http(s)`);
      }
      out[name] = { kind: 'http', url: url.href, headers: stringMap(entry.headers, `${where}.headers`) };
    } else {
      throw new ConfigError(`${where} needs either "command" (stdio) or "url" (streamable HTTP)`);
    }
  }
  return out;
}

/** Reads the servers file; a missing file is an empty configuration. */
export async function loadServersConfig(path: string): Promise<ServersConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${path}: cannot read (${(error as Error).message})`);
  }
  return parseServersConfig(text, path);
}

/** Every secret value in the configuration (env values, header values), for redaction. */
export function secretValues(config: ServersConfig): string[] {
  const values: string[] = [];
  for (const server of Object.values(config)) {
    const map = server.kind === 'stdio' ? server.env : server.headers;
    for (const value of Object.values(map)) if (value.length >= 4) values.push(value);
  }
  return values;
}
