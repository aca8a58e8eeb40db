// A plugin declares its help group (issue 35): the id and place in its manifest, the title in
// its own locale files. Help lists the groups in the declared order, the spec's (part 2).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpGroupsOf, TRANSLATED_LOCALES, type PluginManifest } from '../../src/core/host/index.ts';
import { loadLocale, loadManifest, ROOT } from '../harness/shellTester.ts';

const manifests: PluginManifest[] = await Promise.all(readdirSync(path.join(ROOT, 'plugins')).map(loadManifest));
const groups = helpGroupsOf(manifests);

describe('help groups', () => {
  it("are the spec's, in its order, each declared once", () => {
    expect(groups.map((g) => g.id)).toEqual(['general', 'sessions', 'archive', 'models', 'stats', 'speak', 'roles', 'stores', 'web', 'nodes', 'keys', 'user', 'information', 'cli']);
    expect(manifests.flatMap((m) => m.helpGroups ?? []).length).toBe(groups.length);
  });

  it('hold every command, in a group some plugin declares', () => {
    const ids = new Set(groups.map((g) => g.id));
    for (const m of manifests) for (const c of m.commands ?? []) expect(ids.has(c.group), `${c.id}: ${c.group}`).toBe(true);
  });

  it.each(TRANSLATED_LOCALES)('%s titles each group in the declaring plugin’s locale file', async (lang) => {
    for (const g of groups) {
      const locale = (await loadLocale(lang, g.pluginId)) as { help?: { group?: Record<string, string> } } | undefined;
      expect(locale?.help?.group?.[g.id], `${lang}/${g.pluginId}.json help.group.${g.id}`).toBeTruthy();
    }
  });
});
