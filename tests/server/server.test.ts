// The server over real HTTP: system info, ping, the SPA with its security headers, and JSON
// errors for unknown API routes.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import appConfig from '../../app.config.ts';
import { createServer, type Server } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';

let server: ServerType;
let shellchat: Server;
let url: string;

beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'shellchat-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  const config = loadConfig({
    SHELLCHAT_DIST: dist,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-data-')),
    ROOT_PASSWORD: 'root-password-1',
    LOG_LEVEL: 'silent',
    WELCOME_MESSAGE: 'Hello <b>there</b>',
    MODEL: 'gpt-demo',
    OPENAI_API_KEY: 'sk-secret-never-sent',
    USE_PAYMENT: 'true',
    PLUGIN_REMOTES: '[{"name":"hello_plugin","entry":"http://plugins.example:4174/remoteEntry.js"}]',
  });
  shellchat = await createServer(config);
  await new Promise<void>((resolve) => {
    server = serve({ fetch: shellchat.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await shellchat.close();
});

describe('server', () => {
  it('GET /api/system/info returns the spec fields and never a key', async () => {
    const res = await fetch(`${url}/api/system/info`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.result).toMatchObject({
      model: 'gpt-demo',
      welcome_message: 'Hello <b>there</b>',
      querying: 'Querying...',
      generating: 'Generating...',
      searching: 'Searching...',
      temperature: 1,
      top_p: 1,
      use_payment: true,
      use_email: false,
      use_node_ai: false,
      minimalist: false,
      default_functions: 'get_time,get_weather,redirect_to_url',
      default_role: '',
      default_stores: '',
      default_node: '',
      role_content_system: '',
      plugins: { enabled: appConfig.plugins, remotes: [{ name: 'hello_plugin', entry: 'http://plugins.example:4174/remoteEntry.js' }] },
    });
    expect(JSON.stringify(body)).not.toContain('sk-secret');
  });

  it('answers the connectivity ping', async () => {
    expect((await fetch(`${url}/api/ping`)).status).toBe(200);
  });

  it('serves the SPA with a strict CSP that allows the configured remote origin only', async () => {
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' http://plugins.example:4174");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves hashed assets as immutable, and nothing outside the build', async () => {
    const asset = await fetch(`${url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${url}/assets/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await fetch(`${url}/api/nothing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: 'Resource not found.', code: 'core.notFound', params: {} });
  });
});

describe('configuration', () => {
  it('refuses bad PORT and PLUGIN_REMOTES values with a clear error', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be a whole number from 0 to 65535, got eighty/);
    expect(() => loadConfig({ TEMPERATURE: '3' })).toThrow(/TEMPERATURE must be a number from 0 to 2/);
    expect(() => loadConfig({ PLUGIN_REMOTES: '{}' })).toThrow(/JSON array/);
    expect(() => loadConfig({ PLUGIN_REMOTES: '[{"name":"x","entry":"javascript:alert(1)"}]' })).toThrow(/http\(s\) entry URL/);
  });
  it('defaults to port 3000 on the loopback address', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, host: '127.0.0.1' });
  });
});
