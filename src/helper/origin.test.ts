// The helper's HTTP face: exact health text, origin and Host checks (CSRF / DNS rebinding),
// preflights, and server secrets never leaving the helper.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_HEALTH_TEXT } from '../core/mcp.ts';
import { startHelper, type Helper } from './start.ts';
import { EVERYTHING_BIN, callTool, rawRequest } from './testing.ts';

const APP = 'http://localhost:3000';
const SECRET = 's3cret-token-value';
let dir: string;
let helper: Helper;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellchat-mcp-origin-'));
  const configPath = join(dir, 'mcp.json');
  await writeFile(
    configPath,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN], env: { API_TOKEN: SECRET } } } }),
  );
  helper = await startHelper(
    { configPath, port: 0, allowedOrigins: [APP, 'http://127.0.0.1:3000'], callTimeoutMs: 10_000 },
    { stderr: 'ignore' },
  );
}, 60_000);

afterAll(async () => {
  await helper?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers exactly the spec text, as text/plain, on 127.0.0.1 only', async () => {
    const res = await rawRequest(helper.port);
    expect(res.status).toBe(200);
    expect(res.body).toBe('Simple MCP is running.');
    expect(res.body).toBe(MCP_HEALTH_TEXT);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(helper.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(helper.port).not.toBe(11318);
  });

  it('accepts localhost:<port> as Host too', async () => {
    const res = await rawRequest(helper.port, { headers: { Host: `localhost:${helper.port}` } });
    expect(res.status).toBe(200);
  });
});

describe('origin checks', () => {
  it('allowed origin: 200 with the exact origin echoed and Vary: Origin', async () => {
    const res = await rawRequest(helper.port, { path: '/tool/list', headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers.vary).toBe('Origin');
    const call = await callTool(helper.port, 'echo', { message: 'hi' }, { Origin: 'http://127.0.0.1:3000' });
    expect(call).toEqual({ status: 200, json: { success: true, result: 'Echo: hi' } });
  });

  it('another origin: 403 and no CORS header, and the tool is not called', async () => {
    for (const origin of ['https://evil.test', 'http://localhost:3001', 'null', 'http://localhost:3000.evil.test']) {
      const res = await rawRequest(helper.port, { path: '/tool/list', headers: { Origin: origin } });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const call = await callTool(helper.port, 'echo', { message: 'pwned' }, { Origin: 'https://evil.test' });
    expect(call.status).toBe(403);
    expect(call.json).toEqual({ success: false, error: 'Origin not allowed' });
  });

  it('no origin (curl, the CLI): 200 without CORS headers', async () => {
    const res = await rawRequest(helper.port, { path: '/tool/list' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const names = (JSON.parse(res.body) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('echo');
  });

  it('a DNS-rebinding Host is refused, with or without an allowed origin', async () => {
    for (const host of [`evil.example:${helper.port}`, 'evil.example:11318', `127.0.0.1:${helper.port + 1}`, 'localhost', '127.0.0.1', `[::1]:${helper.port}`]) {
      const res = await rawRequest(helper.port, { path: '/tool/list', headers: { Host: host } });
      expect(res.status, host).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const withOrigin = await rawRequest(helper.port, { headers: { Host: `evil.example:${helper.port}`, Origin: APP } });
    expect(withOrigin.status).toBe(403);
    expect(withOrigin.body).not.toBe(MCP_HEALTH_TEXT);
  });

  it('preflight: allowed origin gets CORS and Private Network Access headers, another origin gets 403', async () => {
    const preflight = {
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
      'Access-Control-Request-Private-Network': 'true',
    };
    const ok = await rawRequest(helper.port, { method: 'OPTIONS', path: '/tool/call', headers: { Origin: APP, ...preflight } });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers['access-control-allow-methods']).toContain('POST');
    expect(ok.headers['access-control-allow-headers']).toMatch(/content-type/i);
    expect(ok.headers['access-control-allow-private-network']).toBe('true');
    const bad = await rawRequest(helper.port, { method: 'OPTIONS', path: '/tool/call', headers: { Origin: 'https://evil.test', ...preflight } });
    expect(bad.status).toBe(403);
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    expect(bad.headers['access-control-allow-private-network']).toBeUndefined();
  });
});

describe('requests', () => {
  it('rejects bad bodies, unknown tools, wrong methods and oversized bodies', async () => {
    const notJson = await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: '{nope' });
    expect(notJson.status).toBe(400);
    const noTool = await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: '{"args":{}}' });
    expect(noTool.status).toBe(400);
    const unknown = await callTool(helper.port, 'nope', {});
    expect(unknown).toEqual({ status: 404, json: { success: false, error: 'Unknown tool: nope' } });
    expect((await rawRequest(helper.port, { path: '/tool/call' })).status).toBe(405);
    expect((await rawRequest(helper.port, { path: '/server/list' })).status).toBe(404);
    const big = await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: JSON.stringify({ tool: 'echo', args: { message: 'x'.repeat(1_100_000) } }) }).catch(() => ({ status: 413 }));
    expect(big.status).toBe(413);
  });

  it('accepts args as JSON text', async () => {
    const res = await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: JSON.stringify({ tool: 'echo', args: '{"message":"text"}' }) });
    expect(JSON.parse(res.body)).toEqual({ success: true, result: 'Echo: text' });
  });
});

describe('secrets', () => {
  it('a server env secret never appears in any HTTP answer', async () => {
    const answers = [
      await rawRequest(helper.port),
      await rawRequest(helper.port, { path: '/tool/list' }),
      await rawRequest(helper.port, { path: '/tool/list', headers: { Origin: APP } }),
      await rawRequest(helper.port, { path: '/tool/list', headers: { Origin: 'https://evil.test' } }),
      await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: JSON.stringify({ tool: 'echo', args: { message: 'hello' } }) }),
      await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: JSON.stringify({ tool: 'echo', args: { wrong: 1 } }) }),
      // server-everything's get-env prints the server's environment; the helper redacts it.
      await rawRequest(helper.port, { method: 'POST', path: '/tool/call', body: JSON.stringify({ tool: 'get-env', args: {} }) }),
    ];
    for (const answer of answers) {
      expect(answer.body).not.toContain(SECRET);
      expect(JSON.stringify(answer.headers)).not.toContain(SECRET);
    }
    const env = JSON.parse(answers[6]!.body) as { success: boolean; result: string };
    expect(env.success).toBe(true);
    expect(env.result).toContain('"API_TOKEN": "[redacted]"');
  });
});
