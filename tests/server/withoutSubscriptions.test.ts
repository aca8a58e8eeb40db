// An operator who takes no payments leaves the subscription plugin out of app.config.ts: then
// no payment or subscription route exists, and nothing is gated, even with USE_SUBSCRIPTIONS on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import appConfig from '../../app.config.ts';
import { startTestServer, type TestServer } from './support.ts';

describe('a server without the subscription plugin', () => {
  let t: TestServer;
  beforeAll(async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-nopay-')), 'app.config.ts');
    writeFileSync(file, `export default ${JSON.stringify({ plugins: appConfig.plugins.filter((p) => p !== 'subscription') })};\n`);
    t = await startTestServer('sqlite', { SHELLCHAT_APP_CONFIG: file, USE_SUBSCRIPTIONS: 'true', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('has no payment or subscription route', async () => {
    expect(appConfig.plugins).toContain('subscription');
    expect(t.server.apiRoutes().filter((r) => /\/api\/(payment|subscription)\//.test(r.path))).toEqual([]);
    for (const p of ['/api/payment/info', '/api/subscription/list']) expect((await fetch(`${t.url}${p}`)).status).toBe(404);
  });

  it('gates nothing: a plain user keeps stores, nodes and roles', async () => {
    const api = t.client();
    await api.post('/api/user/add', { username: 'free', email: 'free@example.org', password: 'hunter2hunter2' });
    await api.post('/api/user/login', { username: 'free', password: 'hunter2hunter2' });
    expect((await api.get('/api/store/list')).success).toBe(true);
    expect((await api.get('/api/node/list')).success).toBe(true);
    expect((await api.post('/api/role/add', { roleName: 'mine', prompt: 'Be brief.' })).success).toBe(true);
  });
});
