// The helper against real MCP servers: server-everything and server-filesystem from npm over
// stdio, and a streamable-HTTP server started in-process; config reloads and call timeouts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig, ServersConfig } from './config.ts';
import { McpHub } from './servers.ts';
import { startHelper, type Helper } from './start.ts';
import { EVERYTHING_BIN, FILESYSTEM_BIN, callTool, rawRequest, startHttpMcpServer, waitFor } from './testing.ts';

let dir: string;
let httpServer: Awaited<ReturnType<typeof startHttpMcpServer>>;
const hubs: McpHub[] = [];
const helpers: Helper[] = [];

const everything: ServerConfig = { kind: 'stdio', command: process.execPath, args: [EVERYTHING_BIN], env: {} };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellchat-mcp-servers-'));
  await writeFile(join(dir, 'notes.txt'), 'hello from the filesystem server\n');
  httpServer = await startHttpMcpServer();
});

afterEach(async () => {
  await Promise.all(helpers.splice(0).map((helper) => helper.close()));
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

afterAll(async () => {
  await httpServer?.close();
  await rm(dir, { recursive: true, force: true });
});

async function hubWith(config: ServersConfig): Promise<McpHub> {
  const hub = new McpHub({ stderr: 'ignore', connectTimeoutMs: 30_000 });
  hubs.push(hub);
  await hub.load(config);
  return hub;
}

describe('real MCP servers', () => {
  it('server-everything over stdio: lists echo and calls it', async () => {
    const hub = await hubWith({ everything });
    const echo = hub.tools().find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({ description: expect.any(String), parameters: { type: 'object', properties: { message: { type: 'string' } } } });
    expect(hub.tools().map((tool) => tool.name)).toContain('get-sum');
    expect(await hub.call('echo', { message: 'round trip' }, 10_000)).toBe('Echo: round trip');
    expect(await hub.call('get-sum', { a: 2, b: 40 }, 10_000)).toMatch(/42/);
  }, 30_000);

  it('server-filesystem over stdio on a temp dir: reads a file and lists the directory', async () => {
    const hub = await hubWith({ files: { kind: 'stdio', command: process.execPath, args: [FILESYSTEM_BIN, dir], env: {} } });
    const names = hub.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_text_file', 'list_directory']));
    expect(await hub.call('read_text_file', { path: join(dir, 'notes.txt') }, 10_000)).toContain('hello from the filesystem server');
    expect(await hub.call('list_directory', { path: dir }, 10_000)).toContain('[FILE] notes.txt');
    // Outside its directory the server refuses; the helper passes the error on.
    await expect(hub.call('read_text_file', { path: '/etc/hostname' }, 10_000)).rejects.toMatchObject({ status: 200, message: expect.stringMatching(/denied|outside|not allowed/i) });
  }, 30_000);

  it('a streamable-HTTP server configured by URL', async () => {
    const hub = await hubWith({ remote: { kind: 'http', url: httpServer.url, headers: {} } });
    expect(hub.tools().map((tool) => tool.name).sort()).toEqual(['add', 'echo', 'hang']);
    expect(await hub.call('add', { a: 2, b: 3 }, 10_000)).toBe('5');
  });

  it('prefixes names only on clashes, and calls the right server', async () => {
    const hub = await hubWith({ everything, remote: { kind: 'http', url: httpServer.url, headers: {} } });
    const names = hub.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything_echo', 'remote_echo', 'add', 'get-sum']));
    expect(names).not.toContain('echo');
    expect(await hub.call('everything_echo', { message: 'a' }, 10_000)).toBe('Echo: a');
    expect(await hub.call('remote_echo', { message: 'b' }, 10_000)).toBe('http: b');
  }, 30_000);

  it('a server that fails to start is skipped; the others work', async () => {
    const lines: string[] = [];
    const hub = new McpHub({ stderr: 'ignore', log: (line) => lines.push(line) });
    hubs.push(hub);
    await hub.load({
      broken: { kind: 'stdio', command: join(dir, 'no-such-binary'), args: [], env: { API_TOKEN: 'hidden-value' } },
      remote: { kind: 'http', url: httpServer.url, headers: {} },
    });
    expect(hub.servers()).toEqual([{ name: 'remote', tools: 3 }]);
    expect(lines.join('\n')).toMatch(/server "broken" failed to start/);
    expect(lines.join('\n')).not.toContain('hidden-value');
  });
});

describe('helper over HTTP', () => {
  it('reloads when the config file changes; a broken file keeps the old servers', async () => {
    const configPath = join(dir, 'reload.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { remote: { url: httpServer.url } } }));
    const reloads: (Error | undefined)[] = [];
    const helper = await startHelper(
      { configPath, port: 0, allowedOrigins: ['http://localhost:3000'], callTimeoutMs: 10_000 },
      { stderr: 'ignore', watchDebounceMs: 50, onReload: (error) => reloads.push(error) },
    );
    helpers.push(helper);
    const names = async () => (JSON.parse((await rawRequest(helper.port, { path: '/tool/list' })).body) as { name: string }[]).map((tool) => tool.name);
    expect((await names()).sort()).toEqual(['add', 'echo', 'hang']);

    await writeFile(configPath, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN] } } }));
    await waitFor(async () => (await names()).includes('get-sum'), 20_000);
    expect(await names()).not.toContain('add');
    expect(await callTool(helper.port, 'echo', { message: 'reloaded' })).toEqual({ status: 200, json: { success: true, result: 'Echo: reloaded' } });

    // A broken file keeps the previous servers.
    const before = reloads.length;
    await writeFile(configPath, '{ broken');
    await waitFor(() => reloads.slice(before).some((error) => error !== undefined), 10_000);
    expect(await names()).toContain('get-sum');
  }, 40_000);

  it('a tool call that hangs past the timeout answers a timeout error', async () => {
    const configPath = join(dir, 'timeout.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { remote: { url: httpServer.url } } }));
    const helper = await startHelper(
      { configPath, port: 0, allowedOrigins: ['http://localhost:3000'], callTimeoutMs: 300 },
      { stderr: 'ignore', watchDebounceMs: 50 },
    );
    helpers.push(helper);
    const started = Date.now();
    const res = await callTool(helper.port, 'hang', {});
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(504);
    expect(res.json).toEqual({ success: false, error: 'Tool hang timed out after 300 ms' });
    // The helper still works afterwards.
    expect(await callTool(helper.port, 'add', { a: 1, b: 1 })).toEqual({ status: 200, json: { success: true, result: '2' } });
  });
});
