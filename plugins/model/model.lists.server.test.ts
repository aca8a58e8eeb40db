// The model lists and the choice of a model, through the real plugin host against the real
// server over HTTP (SQLite): the four sections and their stars, showing a model without its
// key, and use/unuse/reset for anonymous visitors and users, with the local model server up
// or down. Setup in modelTestSupport.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { CLOSED, lastJson, ollama, PW, server, signedUp, startModelServers, stopModelServers, system, SYSTEM_KEY, SYSTEM_KEY_2, tester } from './modelTestSupport.ts';

beforeAll(startModelServers, 60_000);
afterAll(stopModelServers);

describe('anonymous visitors (model read)', () => {
  it(':model ls lists the four sections, starring the default system model', async () => {
    const t = await tester();
    const result = await t.run(':model ls');
    expect(result.errors).toEqual([]);
    expect(result.text).toBe(
      ['User models:\n(none)', 'Group models:\n(none)', 'System models:\n*\\gpt-4o-mini \\second', 'Local models:\n\\llama3.2 \\qwen2.5:0.5b'].join('\n'),
    );
    expect((await t.run(':model list')).text).toBe(result.text);
  });

  it(':model shows the default model, or the quoted one; never a key', async () => {
    const t = await tester();
    const shown = await t.run(':model');
    expect(shown.text).toContain('No model is chosen; the default model is in use:');
    expect(lastJson(shown.outputs)).toMatchObject({ name: 'gpt-4o-mini', scope: 'system' });
    expect(lastJson(shown.outputs)).not.toHaveProperty('api_key');
    // A system model's URL is the operator's, often an internal address (issue 34).
    expect(lastJson(shown.outputs)).not.toHaveProperty('base_url');
    expect(lastJson((await t.run(':model "second"')).outputs)).toMatchObject({ name: 'second', model: 'gpt-4o' });
    expect(lastJson((await t.run(':m "llama3.2"')).outputs)).toMatchObject({ name: 'llama3.2', scope: 'local', base_url: ollama.url });
    expect((await t.run(':model "nope"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':model second')).errors).toEqual(['Name must be quoted with double quotes.']);
    for (const line of [':model', ':model "second"', ':model ls']) {
      const text = (await t.run(line)).text;
      expect(text).not.toContain(SYSTEM_KEY);
      expect(text).not.toContain(SYSTEM_KEY_2);
    }
  });

  it("'Please login.' for use; 'No model is set...' only without an active or a default model", async () => {
    const t = await tester();
    expect((await t.run(':model use "second"')).errors).toEqual(['Please login.']);
    expect(t.settings.get('model')).toBe('');
    expect((await t.run(':model unuse')).errors).toEqual(['No model is set...']);
    // No server (so no default model) and no local model server.
    const bare = await createShellTester({ plugins: ['model'], systemInfo: { ollama_url: CLOSED } });
    expect((await bare.run(':model')).errors).toEqual(['No model is set...']);
    // Not 'No available model found.', which would say there are none: the server is away.
    expect((await bare.run(':model ls')).errors).toEqual(['You are offline.']);
    // In the interface's language, as the shell's own message.
    const zh = await createShellTester({ plugins: ['model'], lang: 'zh-CN', systemInfo: { ollama_url: CLOSED } });
    expect((await zh.run(':model ls')).errors).toEqual(['你已离线。']);
  });
});

describe('use, unuse, reset', () => {
  it('uses a system model, then a local one, starring each; unuse goes back to the default', async () => {
    const t = await signedUp();
    expect((await t.run(':model use "second"')).text).toBe('Model set to second.');
    expect(t.settings.get('model')).toBe('second');
    // Its URL is not the browser's to know.
    expect(t.settings.get('baseUrl')).toBe('');
    expect((await t.run(':model ls')).text).toContain('System models:\n\\gpt-4o-mini *\\second');
    expect(lastJson((await t.run(':model')).outputs)).toMatchObject({ name: 'second' });

    expect((await t.run(':model use "llama3.2"')).text).toBe('Model set to llama3.2.');
    expect(t.settings.get('baseUrl')).toBe(ollama.url);
    const listed = (await t.run(':model ls')).text;
    expect(listed).toContain('System models:\n\\gpt-4o-mini \\second');
    expect(listed).toContain('Local models:\n*\\llama3.2 \\qwen2.5:0.5b');
    expect(lastJson((await t.run(':model')).outputs)).toMatchObject({ name: 'llama3.2', scope: 'local' });

    expect((await t.run(':model unuse')).text).toBe('Model unset. The default model gpt-4o-mini is in use.');
    expect([t.settings.get('model'), t.settings.get('baseUrl')]).toEqual(['', '']);
    expect((await t.run(':model unuse')).errors).toEqual(['No model is set...']);
    expect((await t.run(':model use "nope"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':model use nope')).errors).toEqual(['Name must be quoted with double quotes.']);
  });

  it(':model reset goes back to the default model and starts a new session', async () => {
    const old = 1_700_000_000_000;
    const t = await signedUp({ settings: { session: old, time: old, head: old } });
    await t.run(':model use "second"');
    const result = await t.run(':model reset');
    expect(result.text).toBe('Model reset to the default; a new session has started.');
    expect([t.settings.get('model'), t.settings.get('baseUrl')]).toEqual(['', '']);
    expect(t.settings.get<number>('session')).toBeGreaterThan(old);
    expect(t.settings.get('head')).toBe(0);
  });

  it('the active model follows the user to the server settings', async () => {
    const t = await signedUp();
    await t.run(':model use "second"');
    await expect
      .poll(async () => {
        const api = server.client();
        await api.post('/api/user/login', { username: t.username, password: PW });
        return ((await api.get<{ settings: { model: string } }>('/api/user/info')).result!).settings.model;
      }, { timeout: 3000 })
      .toBe('second');
  });

  it('with the local model server down: an empty local list, and the Ollama errors for a local model', async () => {
    const t = await signedUp({ ollamaUrl: CLOSED });
    const listed = await t.run(':model ls');
    expect(listed.errors).toEqual([]);
    expect(listed.text).toContain('Local models:\n(none)');
    expect((await t.run(':model use "llama3.2"')).errors).toEqual(['Model not found.']);
    t.settings.set('model', 'llama3.2');
    t.settings.set('baseUrl', CLOSED);
    expect((await t.run(':model')).errors).toEqual(['Cannot connect to Ollama server.']);
    const up = await tester({ settings: { model: 'gone', baseUrl: ollama.url } });
    expect((await up.run(':model')).errors).toEqual(['Ollama model not found.']);
  });
});
