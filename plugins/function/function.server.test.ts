// The function commands through the real plugin host against the real server (SQLite): the
// lists and their stars, schemas, use/unuse with the spec's messages, MCP tools from McpRef,
// and direct `!` calls (one, several, invalid, anonymous, bad JSON, redirects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRef, type McpClient, type PluginEntry } from '../../src/core/index.ts';
import { activateFunction } from './common/index.ts';
import { builtinPlugin, createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'hunter2hunter2';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('sqlite');
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The function plugin with a fake MCP helper in place of the browser's client of the real one. */
async function withMcp(mcp: McpClient): Promise<PluginEntry> {
  return builtinPlugin('function', {
    activate: (ctx) => {
      ctx.services.provide(McpRef, mcp);
      activateFunction(ctx);
    },
  });
}

const fakeMcp: McpClient = {
  available: async () => true,
  tools: async () => [{ name: 'fs_read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  call: async (tool, args) => `${tool} read ${(args as { path: string }).path}`,
};

let seq = 0;
async function tester(options: { login?: boolean; mcp?: McpClient } = {}) {
  const fn = options.mcp ? await withMcp(options.mcp) : 'function';
  const t = await createShellTester({ plugins: ['general', 'user', fn], serverUrl: server.url });
  if (options.login !== false) {
    const username = `fn${++seq}`;
    expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
    expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  }
  return t;
}

describe(':function', () => {
  it('ls shows callables with templates, system functions with the enabled ones starred, and MCP functions', async () => {
    const t = await tester({ login: false });
    t.settings.set('functions', 'get_time,redirect_to_url');
    const out = await t.run(':function ls');
    expect(out.text).toBe([
      'Callables:',
      '\\!get_time({ "timezone": "___" }) \\!get_weather({ "location": "___" }) \\!ask_wolframalpha({ "query": "___", "keyword": "___" }) \\!redirect_to_url({ "url": "___", "blank": "___" })',
      'System functions:',
      '*\\get_time \\get_weather \\ask_wolframalpha *\\redirect_to_url',
      'MCP functions:',
      'No MCP functions (the local MCP helper is not running).',
    ].join('\n'));
    expect((await t.run(':function list')).text).toBe(out.text);
    expect((await t.run(':function')).text).toBe(out.text);
    expect((await t.run(':f')).text).toBe(out.text);
  });

  it('lists and shows MCP tools when the helper is there', async () => {
    const t = await tester({ login: false, mcp: fakeMcp });
    expect((await t.run(':function ls')).text).toContain('MCP functions:\n\\fs_read');
    expect((await t.run(':function fs_read')).outputs[0]).toEqual({ kind: 'json', value: { name: 'fs_read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } });
    expect((await t.run(':function use fs_read')).text).toBe('Function fs_read is in use.');
  });

  it('<name> shows the schema, or says it is not found', async () => {
    const t = await tester({ login: false });
    const out = await t.run(':function get_time');
    expect(out.outputs[0]).toMatchObject({ kind: 'json', value: { name: 'get_time', parameters: { properties: { timezone: { type: 'string' } }, required: ['timezone'] } } });
    expect((await t.run(':function nope')).errors).toEqual(['Function not found.']);
  });

  it('use and unuse change the functions setting with the spec messages', async () => {
    const t = await tester({ login: false });
    expect((await t.run(':function use get_weather')).text).toBe('Function get_weather is in use.');
    expect(t.settings.get('functions')).toBe('get_weather');
    expect((await t.run(':function use get_weather')).errors).toEqual(['Function already in use.']);
    expect((await t.run(':function use get_time')).text).toBe('Function get_time is in use.');
    expect(t.settings.get('functions')).toBe('get_weather,get_time');
    expect((await t.run(':function use nope')).errors).toEqual(['Function not found.']);
    expect((await t.run(':function unuse get_weather')).text).toBe('Function get_weather is no longer in use.');
    expect((await t.run(':function unuse get_weather')).errors).toEqual(['Function not in use.']);
    expect((await t.run(':function unuse nope')).errors).toEqual(['Function not found.']);
    expect(t.settings.get('functions')).toBe('get_time');
  });

  it('syncs the functions setting for a logged-in user', async () => {
    const t = await tester();
    await t.run(':function use get_time');
    await expect.poll(async () => {
      const res = await fetch(`${server.url}/api/user/info`, { headers: { cookie: [...t.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      return ((await res.json()) as { result: { settings: { functions: string } } }).result.settings.functions;
    }).toBe('get_time');
  });
});

describe('direct calls', () => {
  it('run one call and print its message', async () => {
    const t = await tester();
    const out = await t.run('!get_time({"timezone":"Asia/Tokyo"})');
    expect(out.errors).toEqual([]);
    expect(out.text).toMatch(/^The current time in Asia\/Tokyo is .*GMT\+9\.$/);
    expect(out.remember).toBe(true);
  });

  it('run several calls at once, each under its call', async () => {
    const t = await tester();
    const out = await t.run('!get_time({"timezone":"UTC"}),!get_time({"timezone":"Mars/Base"})');
    expect(out.outputs).toHaveLength(2);
    expect(out.outputs[0]).toMatchObject({ kind: 'text' });
    expect(out.text.split('\n')[0]).toBe('!get_time({"timezone":"UTC"})');
    expect(out.errors).toEqual(['!get_time({"timezone":"Mars/Base"})\nUnknown time zone "Mars/Base".']);
  });

  it('need parentheses', async () => {
    const t = await tester();
    expect((await t.run('!get_time')).errors).toEqual(['Function invalid.']);
  });

  it('need a login', async () => {
    const t = await tester({ login: false });
    expect((await t.run('!get_time({"timezone":"UTC"})')).errors).toEqual(['Please login.']);
  });

  it('say clearly when the arguments are not JSON', async () => {
    const t = await tester();
    const out = await t.run('!get_time({timezone: "UTC"})');
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(/^Invalid arguments for get_time: The arguments are not valid JSON \(.+\)\.$/);
    expect((await t.run('!get_time(["UTC"])')).errors).toEqual(['Invalid arguments for get_time: The arguments must be a JSON object, e.g. { "timezone": "UTC" }.']);
  });

  it("say so in the interface's language: the server's messages and the rules' details", async () => {
    const t = await createShellTester({ plugins: ['general', 'user', 'function'], serverUrl: server.url, lang: 'zh-CN' });
    const username = `fnzh${++seq}`;
    await t.run(`:user add ${username} ${username}@example.org ${PW}`);
    await t.run(`:login ${username} ${PW}`);
    expect((await t.run('!get_time({"timezone":"Mars/Base"})')).errors).toEqual(['未知时区“Mars/Base”。']);
    // Several calls: each body translated under its call, as written.
    const several = await t.run('!get_time({"timezone":"UTC"}),!nope({})');
    expect(several.errors).toEqual(['!nope({})\n未找到函数。']);
    expect((await t.run('!get_time(["UTC"])')).errors).toEqual(['get_time 的参数无效：参数必须是 JSON 对象，例如 { "timezone": "UTC" }。']);
  });

  it('say when a function does not exist', async () => {
    const t = await tester();
    expect((await t.run('!nope({})')).errors).toEqual(['Function not found.']);
  });

  it('turn a redirect into an open effect', async () => {
    const t = await tester();
    const out = await t.run('!redirect_to_url({"url":"https://example.org","blank":false})');
    expect(out.outputs).toContainEqual({ kind: 'effect', effect: { type: 'open', url: 'https://example.org/', blank: false } });
    expect((await t.run('!redirect_to_url({"url":"file:///etc/passwd"})')).errors).toEqual(['URL must start with http or https.']);
  });

  it('run MCP tools through the local helper', async () => {
    const t = await tester({ mcp: fakeMcp });
    expect((await t.run('!fs_read({"path":"/notes.txt"})')).text).toBe('fs_read read /notes.txt');
  });
});
