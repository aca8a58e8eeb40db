// Contract tests over every manifest and locale: ids and spellings are unique, every i18n key
// a manifest names exists in every translated locale (one per UI language), those locales have
// the en-US keys and placeholders, and every command is in help.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CommandRegistry,
  collectDocs,
  createI18n,
  detailsKey,
  helpOverview,
  LANGUAGES,
  messageTemplates,
  Message,
  translateMessage,
  OLLAMA_MESSAGES,
  USER_SETTING_MESSAGES,
  type MessageCatalogue,
  spellings,
  summaryKey,
  TRANSLATED_LOCALES,
  usageOf,
  type PluginManifest,
} from '../../src/core/host/index.ts';
import API_ROUTES from '../../src/core/api/apiRoutes.json' with { type: 'json' };
import { SERVER_MESSAGES } from '../../src/core/serverMessages.ts';
import { builtinPlugin, createShellTester, loadLocale, loadManifest, ROOT } from '../harness/shellTester.ts';

const pluginIds = readdirSync(path.join(ROOT, 'plugins'));
const manifests: PluginManifest[] = await Promise.all(pluginIds.map(loadManifest));
// Documentation contributions live in each plugin's lazily loaded docs.ts.
const docsSources = await Promise.all(
  pluginIds.map(async (id) => ({ id, docs: (await (await builtinPlugin(id)).docs?.()) ?? undefined })),
);

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) for (const [fk, fv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(fk, fv);
  }
  return out;
}

// Every catalogue of messages: the core's, and each plugin's (its common/messages.ts).
const catalogues: MessageCatalogue[] = [SERVER_MESSAGES, USER_SETTING_MESSAGES, OLLAMA_MESSAGES];
for (const id of pluginIds) {
  const where = path.join(ROOT, 'plugins', id, 'common', 'messages.ts');
  if (existsSync(where)) catalogues.push(((await import(where)) as { MESSAGES: MessageCatalogue }).MESSAGES);
}

// Each namespace's English messages, as the code defines them: en-US's `err.<name>` are these.
const english = new Map<string, Map<string, string>>();
for (const catalogue of catalogues) {
  const { namespace, templates } = messageTemplates(catalogue);
  const seen = english.get(namespace) ?? new Map<string, string>();
  for (const [name, template] of Object.entries(templates)) seen.set(`err.${name}`, template);
  english.set(namespace, seen);
}

const locales = new Map<string, Map<string, string>>();
for (const lang of TRANSLATED_LOCALES) {
  for (const ns of ['shell', 'core', ...pluginIds]) locales.set(`${lang}/${ns}`, flatten((await loadLocale(lang, ns)) ?? {}));
}
// Keys are resolved the way the app resolves them: through i18next, without fallback.
const translators = new Map<string, (ns: string, key: string) => boolean>();
for (const lang of TRANSLATED_LOCALES) {
  const i18n = await createI18n({ lang, namespaces: ['shell', 'core', ...pluginIds], load: loadLocale });
  translators.set(lang, (ns, key) => i18n.instance.exists(key, { ns, lng: lang, fallbackLng: false }));
}
const has = (lang: string, ns: string, key: string) => translators.get(lang)!(ns, key);

function dottedKeys(value: unknown, where = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k.includes('.') ? [`${where}${k}`] : []), ...dottedKeys(v, `${where}${k}/`)]);
}

describe('manifests', () => {
  it('have unique, kebab-case plugin ids equal to their folder', () => {
    expect(manifests.map((m) => m.id)).toEqual(pluginIds);
    for (const m of manifests) expect(m.id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('have unique command ids and spellings across all plugins', () => {
    const ids = manifests.flatMap((m) => (m.commands ?? []).map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    const words = manifests.flatMap((m) => (m.commands ?? []).flatMap((c) => spellings(c).map((s) => s.join(' '))));
    expect(words.filter((w, i) => words.indexOf(w) !== i)).toEqual([]);
  });

  it('declare settings with defaults of their type and unique keys', () => {
    const keys = manifests.flatMap((m) => (m.settings ?? []).map((s) => s.key));
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of manifests.flatMap((m) => m.settings ?? [])) {
      if (s.type === 'enum') expect(s.values).toContain(s.default);
      if (s.type === 'boolean') expect(typeof s.default).toBe('boolean');
      if (s.type === 'number') expect(typeof s.default).toBe('number');
    }
  });

  it('put a rest argument only last, and never quote a closed set of values', () => {
    for (const c of manifests.flatMap((m) => m.commands ?? [])) {
      const args = c.args ?? [];
      args.forEach((a, i) => {
        if (a.rest) expect(i, c.id).toBe(args.length - 1);
        if (a.values) expect(a.quoted, c.id).toBeUndefined();
      });
    }
  });
});

describe('locales', () => {
  it.each(TRANSLATED_LOCALES)('%s has every summary, details and docs key a manifest names', (lang) => {
    for (const m of manifests) {
      for (const c of m.commands ?? []) {
        expect(has(lang, m.id, summaryKey(c)), `${lang}/${m.id}: ${summaryKey(c)}`).toBe(true);
        if (has('en-US', m.id, detailsKey(c))) expect(has(lang, m.id, detailsKey(c)), `${lang}/${m.id}: ${detailsKey(c)}`).toBe(true);
      }
      const docs = docsSources.find((d) => d.id === m.id)?.docs ?? {};
      const keys = [
        ...(docs.introduction ?? []),
        ...(docs.quickStart ?? []).map((d) => d.key),
        ...(docs.features ?? []).map((d) => d.key),
        ...(docs.functions ?? []).map((d) => d.key),
        ...(docs.shortcuts ?? []).map((d) => d.key),
        ...(docs.gestures ?? []).map((d) => d.key),
        ...(docs.faqs ?? []).flatMap((d) => [d.question, d.answer]),
        ...(docs.feedback ?? []).map((d) => d.label),
      ];
      for (const key of keys) expect(has(lang, m.id, key), `${lang}/${m.id}: ${key}`).toBe(true);
    }
  });

  it.each(TRANSLATED_LOCALES)('%s describes every API route in the table generated from the routes', (lang) => {
    expect(API_ROUTES.length).toBeGreaterThan(60);
    for (const route of API_ROUTES) {
      expect(['core', ...pluginIds], `${route.method} ${route.path}`).toContain(route.owner);
      expect(has(lang, route.owner, `docs.api.${route.method} ${route.path}`), `${lang}/${route.owner}: ${route.method} ${route.path}`).toBe(true);
    }
  });

  it('nest keys instead of writing dots inside a JSON key (i18next would not find them)', async () => {
    for (const lang of TRANSLATED_LOCALES) {
      for (const ns of ['shell', 'core', ...pluginIds]) expect(dottedKeys(await loadLocale(lang, ns)), `${lang}/${ns}`).toEqual([]);
    }
  });

  it('translates all 18 UI languages of spec part 9, one locale each, every one of them on disk', () => {
    expect(new Set(TRANSLATED_LOCALES.map((code) => code.split('-')[0])).size).toBe(18);
    expect(TRANSLATED_LOCALES.every((code) => LANGUAGES.some((l) => l.code === code))).toBe(true);
  });

  it.each(TRANSLATED_LOCALES.filter((code) => code !== 'en-US'))('%s has exactly the en-US keys and placeholders, and a translation of every message', (lang) => {
    for (const ns of ['shell', 'core', ...pluginIds]) {
      // en-US's file and the code's messages (whose English is said only in the code).
      const en = new Map([...locales.get(`en-US/${ns}`)!, ...(english.get(ns) ?? [])]);
      const other = locales.get(`${lang}/${ns}`)!;
      expect([...other.keys()].sort(), `${lang}/${ns}`).toEqual([...en.keys()].sort());
      for (const [key, value] of en) {
        const placeholders = (value.match(/\{\{\w+\}\}/g) ?? []).sort();
        expect((other.get(key)?.match(/\{\{\w+\}\}/g) ?? []).sort(), `${lang}/${ns}: ${key}`).toEqual(placeholders);
      }
    }
  });

  it("says each message's English once, in the code: en-US has no err.<name>, and shows the catalogue's text", async () => {
    const names = new Map<string, Set<string>>();
    for (const catalogue of catalogues) {
      const { namespace, templates } = messageTemplates(catalogue);
      expect(['shell', 'core', ...pluginIds], namespace).toContain(namespace);
      const seen = names.get(namespace) ?? new Set<string>();
      // One name, one message, across the catalogues of a namespace.
      for (const name of Object.keys(templates)) expect(seen.has(name), `${namespace}: ${name}`).toBe(false);
      names.set(namespace, new Set([...seen, ...Object.keys(templates)]));
    }
    expect([...english.keys()].sort()).toEqual(['archive', 'audit', 'core', 'function', 'general', 'key', 'model', 'node', 'role', 'search', 'session', 'sso', 'store', 'subscription', 'user', 'web']);
    for (const ns of ['shell', 'core', ...pluginIds]) expect((await loadLocale('en-US', ns))?.err, ns).toBeUndefined();
    // What the page and the terminal show in en-US: each message as its catalogue filled it, a
    // value that reads like a hole or an i18next nesting left as it is.
    const i18n = await createI18n({ lang: 'en-US', namespaces: ['shell', 'core', ...pluginIds], load: loadLocale });
    const value = '{{name}} $t(shell:msg.offline)';
    for (const catalogue of catalogues) {
      for (const entry of Object.values(catalogue as unknown as Record<string, Message | ((...values: string[]) => Message)>)) {
        const said = typeof entry === 'function' ? entry(value, value, value, value) : entry;
        expect(translateMessage(said, (ns) => i18n.tFor(ns)), said.code).toBe(said.text);
      }
    }
  });

  it("keeps a plugin's messages in one file of one name, common/messages.ts", () => {
    const defining = readdirSync(path.join(ROOT, 'plugins'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => readFileSync(path.join(ROOT, 'plugins', file), 'utf8').includes('defineMessages('));
    expect(defining.length).toBeGreaterThan(0);
    for (const file of defining) expect(file, file).toMatch(/^[^/]+\/common\/messages\.ts$/);
  });

  it('the docs sections meet the spec: 9 quick-start steps, 10 features plus more, two FAQs, three feedback links', () => {
    expect(collectDocs(docsSources, 'quickStart')).toHaveLength(9);
    expect(collectDocs(docsSources, 'features').filter((f) => !f.more)).toHaveLength(10);
    expect(collectDocs(docsSources, 'features').filter((f) => f.more).length).toBeGreaterThan(0);
    expect(collectDocs(docsSources, 'faqs')).toHaveLength(2);
    expect(collectDocs(docsSources, 'feedback').map((f) => f.href.split(':')[0])).toEqual(['https', 'mailto', 'https']);
    // Manifests stay lean: documentation is never in the eagerly loaded manifest of a built-in.
    for (const m of manifests) expect(m.docs, m.id).toBeUndefined();
  });
});

describe('help', () => {
  it('lists every visible command of every plugin', async () => {
    const tester = await createShellTester({ plugins: pluginIds });
    const outputs = helpOverview(new CommandRegistry(manifests, 'browser'), (ns) => tester.i18n.tFor(ns));
    const listed = outputs.flatMap((o) => (o.kind === 'table' ? o.rows.map((r) => r[0]) : []));
    for (const c of manifests.flatMap((m) => m.commands ?? [])) {
      // The CLI group's commands too: the browser lists them (they say where they work).
      if (!c.hidden && (!c.envs || c.envs.includes('browser') || c.group === 'cli')) expect(listed).toContain(usageOf(c));
    }
  });
});
