import { describe, expect, it } from 'vitest';
import { createShellTester, builtinPlugin } from '../../tests/harness/shellTester.ts';
import { activateGeneral } from './common/index.ts';

const tester = await createShellTester();

describe(':help', () => {
  it('lists the spec groups present, in order, generated from manifests', async () => {
    const { outputs } = await tester.run(':help');
    const titles = outputs.map((o) => (o.kind === 'table' ? o.title : ''));
    expect(titles).toEqual(['General', 'Sessions & Logs', 'Export and import', 'Models', 'Stats & Self-evaluation', 'Speak', 'Roles', 'Data Store', 'Web', 'Node', 'API keys', 'User', 'Information', 'CLI']);
    const general = outputs[0]!;
    // The terminal client's own commands, listed in the browser too.
    const cli = outputs.at(-1)!;
    expect(cli.kind === 'table' && cli.rows.map((r) => r[0])).toEqual([':edit [<text>...]', ':exit']);
    expect((await tester.run(':exit')).errors).toEqual([':exit works in the terminal client (shellchat) only.']);
    expect(general.kind === 'table' && general.rows.map((r) => r[0])).toContain(':lang use <code>');
  });
  it('shows details of a command, by root or by full words, and aliases', async () => {
    expect((await tester.run(':help lang use')).text).toContain('A code shorter than 5 characters matches by prefix');
    expect((await tester.run(':help "lang"')).text.split('\n')).toContain(':lang ls');
    expect((await tester.run(':h theme')).text).toContain('Aliases: :t');
  });
  it("answers 'Command not found.'", async () => {
    expect((await tester.run(':help nothing')).errors).toEqual(['Command not found.']);
  });
});

describe('view and session commands', () => {
  it(':theme shows and sets the theme', async () => {
    const t = await createShellTester();
    expect((await t.run(':theme')).text).toBe('Theme: light');
    await t.run(':theme terminal');
    expect(t.settings.get('theme')).toBe('terminal');
    await t.run(':t dark');
    expect(t.settings.get('theme')).toBe('dark');
  });
  it(':fullscreen defaults to default; :split sets split', async () => {
    const t = await createShellTester();
    await t.run(':fullscreen');
    expect(t.settings.get('fullscreen')).toBe('default');
    await t.run(':split');
    expect(t.settings.get('fullscreen')).toBe('split');
    await t.run(':fullscreen off');
    expect(t.settings.get('fullscreen')).toBe('off');
  });
  it(':reset re-stamps session and time and clears head and history index (spec part 4)', async () => {
    const t = await createShellTester({ settings: { session: 1700000000000, time: 1700000000001, head: 1700000000002, historyIndex: 3 } });
    const before = Date.now();
    expect((await t.run(':reset')).text).toBe('Reset.');
    expect(t.settings.get<number>('session')).toBeGreaterThanOrEqual(before);
    expect(t.settings.get('time')).toBe(t.settings.get('session'));
    expect(t.settings.get('head')).toBe(0);
    expect(t.settings.get('historyIndex')).toBe(-1);
  });
  it(':clear and :stop are effects; :stop also stops speech and generation', async () => {
    const t = await createShellTester();
    const seen: string[] = [];
    t.events.on('*', (type) => seen.push(String(type)));
    expect((await t.run(':clear')).outputs).toEqual([{ kind: 'effect', effect: { type: 'clear' } }]);
    expect((await t.run(':stop')).outputs).toEqual([{ kind: 'effect', effect: { type: 'stop' } }]);
    expect(seen).toEqual(['generation:stop', 'speak:cancel']);
  });
  it(':stream on|off', async () => {
    const t = await createShellTester();
    expect((await t.run(':stream off')).text).toBe('Stream mode off.');
    expect(t.settings.get('useStream')).toBe(false);
    expect((await t.run(':stream on')).text).toBe('Stream mode on.');
  });
});

describe(':lang', () => {
  it('reports no language, sets by prefix, lists with a star, resets', async () => {
    const t = await createShellTester();
    expect((await t.run(':lang')).text).toBe('Language not set.');
    // The language is named in the interface's language, which is now Japanese.
    expect((await t.run(':lang use ja')).text).toBe('Language set to 日本語 (日本) (ja-JP).');
    expect((await t.run(':lang')).text).toBe('Language: 日本語 (日本) (ja-JP)');
    const list = (await t.run(':lang ls')).outputs[0]!;
    expect(list.kind === 'list' && list.items.filter((i) => i.active).map((i) => i.text)).toEqual(['ja-JP']);
    expect(list.kind === 'list' && list.items).toHaveLength(29);
    expect((await t.run(':lang list')).text).toContain('*\\ja-JP');
    expect((await t.run(':lang reset')).text).toBe('Language reset.');
    expect(t.settings.get('lang')).toBe('');
  });
  it('confirms in the language just chosen, not the one before (issue 33, item 18)', async () => {
    const t = await createShellTester();
    // As the page and the terminal do: the interface follows the setting.
    t.settings.onChange('lang', (_key, value) => void t.i18n.changeLanguage(String(value) || 'en-US'));
    expect((await t.run(':lang use de-DE')).text).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.');
    expect((await t.run(':lang use ar-SA')).text).toBe('تم تعيين اللغة إلى العربية (المملكة العربية السعودية) (ar-SA).');
    expect((await t.run(':lang use ja')).text).toBe('言語を 日本語 (日本)（ja-JP）に設定しました。');
    expect((await t.run(':lang reset')).text).toBe('Language reset.');
  });
  it('reports several matches and unknown codes with the spec messages', async () => {
    expect((await tester.run(':lang use zh')).errors).toEqual(['Multiple language codes found: zh-CN, zh-HK, zh-TW']);
    expect((await tester.run(':lang use xx-XX')).errors).toEqual(['Language code not found.']);
  });
});

describe(':set', () => {
  it('accepts known keys case-insensitively and validates values (spec part 5)', async () => {
    const t = await createShellTester();
    expect((await t.run(':set MEMLENGTH 3')).text).toBe('memLength: 3');
    expect(t.settings.get('memLength')).toBe(3);
    expect((await t.run(':set memlength lots')).errors).toEqual(['Invalid value. Value must be a number.']);
    expect((await t.run(':set session abc')).errors).toEqual(['Invalid value. Value must be a number.']);
    expect((await t.run(':set time 1.5e3')).errors).toEqual(['Invalid value. Value must be a number.']);
    expect((await t.run(':set useStats maybe')).errors).toEqual(['Invalid value. Value must be true or false.']);
    expect((await t.run(':set useStats TRUE')).text).toBe('useStats: true');
    expect((await t.run(':set theme blue')).errors).toEqual(['Invalid value. Value must be one of: light, dark, terminal']);
    expect((await t.run(':set fullscreen wide')).errors).toEqual(['Invalid value. Value must be one of: off, default, split']);
    expect((await t.run(':set Theme Dark')).text).toBe('theme: dark');
  });
  it("answers 'Unknown key. Key must be one of: ...' with every settable key", async () => {
    const { errors } = await tester.run(':set colour red');
    expect(errors[0]).toMatch(/^Unknown key\. Key must be one of: /);
    for (const key of ['session', 'time', 'memLength', 'theme', 'fullscreen', 'useStats', 'useEval', 'useSpeak', 'voice']) {
      expect(errors[0]).toContain(key);
    }
    // Keys the shell keeps for itself are not settable.
    expect((await tester.run(':set history x')).errors[0]).toMatch(/^Unknown key/);
  });
  it(':set all shows the settable settings', async () => {
    const out = (await tester.run(':set all')).outputs[0]!;
    expect(out.kind === 'json' && Object.keys(out.value as object)).toContain('memLength');
    expect(out.kind === 'json' && Object.keys(out.value as object)).not.toContain('history');
  });
});

describe(':location', () => {
  it('stores "(lat,lng)" and turns location on', async () => {
    const general = await builtinPlugin('general', { activate: (ctx) => activateGeneral(ctx, { geolocate: async () => ({ latitude: 35.6895, longitude: 139.6917 }) }) });
    const t = await createShellTester({ plugins: [general] });
    expect((await t.run(':location on')).text).toBe('Location: (35.6895,139.6917)');
    expect(t.settings.get('useLocation')).toBe(true);
    expect((await t.run(':location off')).text).toBe('Location off.');
    expect(t.settings.get('location')).toBe('');
  });
  it("says 'Location service failed.' and turns location off", async () => {
    const general = await builtinPlugin('general', { activate: (ctx) => activateGeneral(ctx, { geolocate: () => Promise.reject(new Error('denied')) }) });
    const t = await createShellTester({ plugins: [general], settings: { useLocation: true, location: '(1,2)' } });
    expect((await t.run(':location on')).errors).toEqual(['Location service failed.']);
    expect(t.settings.get('useLocation')).toBe(false);
    expect(t.settings.get('location')).toBe('');
  });
});
