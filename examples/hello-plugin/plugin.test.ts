// The hello remote without building it: its manifest satisfies the contract, its command runs
// through the real plugin host with the strings it carries, and the host refuses the same
// plugin built against another plugin API version.
import { describe, expect, it } from 'vitest';
import { PLUGIN_API, type PluginEntry, type PluginManifest } from '../../src/core/host/index.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import entry from './src/plugin.ts';

/** A tester with the built-in general plugin and the remote, its strings added as the browser does. */
async function tester(lang = 'en-US') {
  const t = await createShellTester({ plugins: ['general', entry], lang });
  for (const [code, strings] of Object.entries(entry.locales ?? {})) {
    t.i18n.instance.addResourceBundle(code, entry.manifest.id, strings, true, false);
  }
  return t;
}

describe('hello plugin (Module Federation example)', () => {
  it('has a valid manifest', () => {
    const { manifest } = entry;
    expect(manifest.api).toBe(PLUGIN_API);
    expect(manifest.id).toBe('hello');
    expect(typeof entry.load).toBe('function');
    const words = (manifest.commands ?? []).map((c) => c.words.join(' '));
    expect(new Set(words).size).toBe(words.length);
    expect(manifest.commands).toEqual([
      { id: 'hello', words: ['hello'], group: 'general', args: [{ name: 'name', optional: true }] },
    ]);
    for (const lang of ['en-US', 'zh-CN', 'ar-SA']) {
      expect(entry.locales?.[lang], lang).toMatchObject({
        cmd: { hello: { summary: expect.any(String) } },
        msg: { hello: expect.any(String), helloName: expect.stringContaining('{{name}}') },
      });
    }
  });

  it('answers :hello and :hello <name> through the host', async () => {
    const t = await tester();
    expect(await t.run(':hello')).toMatchObject({ text: 'Hello, world!', errors: [] });
    expect(await t.run(':hello Ada')).toMatchObject({ text: 'Hello, Ada!', errors: [] });
    const help = await t.run(':help hello');
    expect(help.text).toContain(':hello');
    expect(help.text).toContain('Say hello, to the world or to a name.');
  });

  it('speaks zh-CN and ar-SA from its own strings', async () => {
    const zh = await tester('zh-CN');
    expect((await zh.run(':hello')).text).toBe('你好，世界！');
    expect((await zh.run(':hello Ada')).text).toBe('你好，Ada！');
    const ar = await tester('ar-SA');
    expect((await ar.run(':hello')).text).toBe('مرحبًا أيها العالم!');
    expect((await ar.run(':hello Ada')).text).toBe('مرحبًا يا Ada!');
  });

  it('is added at runtime by host.addPlugin, like a loaded remote', async () => {
    const t = await createShellTester({ plugins: ['general'] });
    expect((await t.run(':hello')).errors).toEqual(['Unknown command.']);
    for (const [code, strings] of Object.entries(entry.locales ?? {})) {
      t.i18n.instance.addResourceBundle(code, entry.manifest.id, strings, true, false);
    }
    t.host.addPlugin(entry);
    expect((await t.run(':hello Ada')).text).toBe('Hello, Ada!');
    expect(() => t.host.addPlugin(entry)).toThrow('Plugin hello is already installed.');
  });

  it('is refused when built against another plugin API version', async () => {
    const t = await createShellTester({ plugins: ['general'] });
    // What a remote built for a future host would export: same plugin, api 999.
    const future: PluginEntry = {
      ...entry,
      manifest: { ...entry.manifest, api: 999 } as unknown as PluginManifest,
    };
    expect(() => t.host.addPlugin(future)).toThrow(`Plugin hello targets plugin API 999, this host speaks ${PLUGIN_API}.`);
    expect(t.host.manifests.map((m) => m.id)).not.toContain('hello');
    expect((await t.run(':hello')).errors).toEqual(['Unknown command.']);
  });
});
