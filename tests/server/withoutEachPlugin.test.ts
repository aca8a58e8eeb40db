// The delete-the-folder rule at run time: the server starts with any one plugin left out of the
// app config (SHELLCHAT_APP_CONFIG), serves every other plugin's routes and none of its, and a
// question still reaches the model step (no model is configured, so it ends in 'No available
// model found.'). tests/e2e/composition.test.ts builds the page without plugins.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import appConfig from '../../app.config.ts';
import { startTestServer, type TestServer } from './support.ts';

const routesOf = (t: TestServer) => t.server.apiRoutes().map((r) => `${r.owner} ${r.method} ${r.path}`);

describe('a server with one plugin left out', () => {
  let full: string[];
  beforeAll(async () => {
    const t = await startTestServer('sqlite');
    full = routesOf(t);
    await t.close();
  }, 60_000);

  it.each(appConfig.plugins)('starts without %s and serves the rest', async (id) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), `shellchat-no-${id}-`)), 'app.config.ts');
    writeFileSync(file, `export default ${JSON.stringify({ plugins: appConfig.plugins.filter((p) => p !== id) })};\n`);
    const t = await startTestServer('sqlite', { SHELLCHAT_APP_CONFIG: file });
    try {
      expect(routesOf(t)).toEqual(full.filter((route) => !route.startsWith(`${id} `)));
      expect((await fetch(`${t.url}/api/system/info`)).status).toBe(200);
      const answer = await fetch(`${t.url}/api/generate`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ session: Date.now(), user_input: 'hello' }) });
      expect(await answer.text()).toContain('No available model found.');
    } finally {
      await t.close();
    }
  }, 60_000);
});
