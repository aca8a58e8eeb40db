// The manifests are the one declaration of what follows a user to the server and what reaches
// the model's turn (issue 35): the settings with `sync` are spec part 3's user settings, the
// ones a local change sends are those the running code sent before the lists went, and every
// `turn` field is a field of the generation request that buildRequest fills from its setting.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRequest, turnField } from '../../src/core/api/generateRequest.ts';
import { createMemorySettings, keptSettings, pushedSettings, SHELL_SETTINGS, userSettingRules } from '../../src/core/host/index.ts';
import { loadManifest, ROOT } from '../harness/shellTester.ts';

const appConfig = (await import(path.join(ROOT, 'app.config.ts'))).default as { plugins: string[] };
const manifests = await Promise.all(readdirSync(path.join(ROOT, 'plugins')).map(loadManifest));
const specs = [...SHELL_SETTINGS, ...manifests.flatMap((m) => m.settings ?? [])];
const keys = (list: { key: string }[]) => list.map((s) => s.key).sort();

describe('settings declared by the manifests', () => {
  it('keep on the server exactly the user settings of spec part 3, the group password being the server’s own', () => {
    const spec = ['lang', 'theme', 'fullscreen', 'useSpeak', 'useEval', 'useSystemRole', 'model', 'functions', 'role', 'stores', 'node', 'memLength', 'passMask', 'groupPassword'];
    expect([...userSettingRules(specs).keys].sort()).toEqual([...spec].sort());
    expect(keys(keptSettings(specs))).toEqual(spec.filter((k) => k !== 'groupPassword').sort());
    // `stores` and `node` load at login but a local change is not sent (`:store use` keeps its own).
    expect(keys(pushedSettings(specs))).toEqual(spec.filter((k) => !['stores', 'node', 'groupPassword'].includes(k)).sort());
  });

  it('name the kept settings lang first, as the unknown-key message lists them', () => {
    const installed = appConfig.plugins.map((id) => manifests.find((m) => m.id === id)!);
    const rules = userSettingRules([...SHELL_SETTINGS, ...installed.flatMap((m) => m.settings ?? [])]);
    expect(rules.keys.slice(0, 3)).toEqual(['lang', 'theme', 'fullscreen']);
    expect(rules.defaults).toMatchObject({ lang: '', theme: 'light', memLength: 7, useSystemRole: true, passMask: true, stores: '', groupPassword: '' });
  });

  it('carry each `turn` setting into its request field, lists comma-joined and empty text left out', () => {
    const settings = createMemorySettings(specs, { session: 5, time: 3, model: 'gpt', memLength: 2, functions: 'a,b', useStats: true, useSystemRole: false, location: '' });
    const request = buildRequest(settings, { text: 'hi', images: [], files: [] });
    expect(request).toEqual({
      user_input: 'hi',
      images: [],
      files: [],
      session: 5,
      time: 3,
      model: 'gpt',
      mem_length: 2,
      functions: 'a,b',
      use_stats: true,
      use_eval: false,
      use_location: false,
      use_system_role: false,
    });
    // Only settings reach the turn that declare it.
    expect(specs.filter((s) => s.turn).map((s) => turnField(s.key)).sort()).toEqual(
      ['functions', 'lang', 'location', 'mem_length', 'model', 'node', 'role', 'stores', 'use_eval', 'use_location', 'use_stats', 'use_system_role'],
    );
  });
});
