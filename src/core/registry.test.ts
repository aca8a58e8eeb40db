import { describe, expect, it } from 'vitest';
import { bindArgs, CommandRegistry, usageOf, usageOfCommand, usageSaid } from './registry.ts';
import { tokenize } from './tokenize.ts';
import { definePlugin, PLUGIN_API, type CommandSpec } from './contract.ts';
import { pushHistory, walkHistory } from './host/history.ts';
import { maskSecrets } from './host/secrets.ts';
import { parseSettingInput, coerceStored, createMemorySettings } from './settings.ts';
import { HISTORY_MAX } from './constants.ts';

const spec = (s: Partial<CommandSpec> & Pick<CommandSpec, 'id' | 'words'>): CommandSpec => ({ group: 'general', ...s });

describe('tokenize', () => {
  it('splits on spaces, commas, tabs and the ideographic space', () => {
    expect(tokenize('a b,c\td\u3000e').map((t) => t.value)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('keeps offsets for masking', () => {
    expect(tokenize('login ada "pw 1"').map((t) => [t.start, t.end, t.quoted])).toEqual([
      [0, 5, false], [6, 9, false], [10, 16, true],
    ]);
  });
});

describe('usage lines are generated from argument specs', () => {
  it.each([
    [spec({ id: 'a', words: ['lang', 'use'], args: [{ name: 'code' }] }), ':lang use <code>'],
    [spec({ id: 'b', words: ['stats'], args: [{ name: 's', values: ['on', 'off'] }] }), ':stats {on|off}'],
    [spec({ id: 'c', words: ['fullscreen'], args: [{ name: 'm', optional: true, values: ['off', 'default'] }] }), ':fullscreen [off|default]'],
    [spec({ id: 'd', words: ['role', 'add'], args: [{ name: 'name', quoted: 'roleName' }, { name: 'prompt', quoted: 'prompt' }] }), ':role add "<name>" "<prompt>"'],
    [spec({ id: 'e', words: ['role'], args: [{ name: 'name', quoted: 'roleName', optional: true }] }), ':role ["<name>"]'],
  ])('%#', (s, usage) => expect(usageOf(s)).toBe(usage));

  it("give a manifest's command by id, and a handler the shell's usage line in the interface's words", () => {
    const export_ = spec({ id: 'p.export', words: ['p', 'export'], args: [{ name: 'options', optional: true, rest: true, display: '[--all]' }] });
    const manifest = definePlugin({ api: PLUGIN_API, id: 'p', version: '1', commands: [export_] });
    expect(usageOfCommand(manifest, 'p.export')).toBe(':p export [--all]');
    expect(() => usageOfCommand(manifest, 'p.import')).toThrow('p has no command p.import');
    const tFor = (ns: string) => (key: string) => (ns === 'shell' && key === 'msg.usage' ? 'Verwendung:' : key);
    expect(usageSaid({ spec: export_, tFor })).toBe('Verwendung: :p export [--all]');
  });
});

describe('resolution', () => {
  const registry = new CommandRegistry(
    [
      definePlugin({
        api: PLUGIN_API,
        id: 'p',
        version: '1',
        commands: [
          spec({ id: 'role', words: ['role'], args: [{ name: 'name', quoted: 'roleName', optional: true }] }),
          spec({ id: 'role.ls', words: ['role', 'ls'], aliases: [['role', 'list']] }),
          spec({ id: 'cli', words: ['vi'], envs: ['cli'] }),
        ],
      }),
    ],
    'browser',
  );
  it('prefers the longest spelling', () => {
    const r = registry.resolve(tokenize('role list'));
    expect(r.kind === 'found' && r.command.spec.id).toBe('role.ls');
  });
  it('does not match a quoted word as a command word', () => {
    const r = registry.resolve(tokenize('role "ls"'));
    expect(r.kind === 'found' && r.command.spec.id).toBe('role');
  });
  it('hides commands of other environments', () => {
    expect(registry.resolve(tokenize('vi')).kind).toBe('unknown');
  });
  it('binds optional arguments and refuses extra ones', () => {
    const role = registry.byId('role')!.spec;
    expect(bindArgs(role, tokenize('"coder"'))).toEqual({ ok: true, args: { name: 'coder' } });
    expect(bindArgs(role, [])).toEqual({ ok: true, args: {} });
    expect(bindArgs(role, tokenize('"a" "b"'))).toEqual({ ok: false, error: 'usage' });
  });
  it('masks secret arguments for display', () => {
    const reg = new CommandRegistry(
      [definePlugin({ api: PLUGIN_API, id: 'u', version: '1', commands: [spec({ id: 'login', words: ['login'], args: [{ name: 'u' }, { name: 'p', secret: true }] })] })],
      'browser',
    );
    expect(maskSecrets(':login ada hunter2', reg)).toBe(':login ada *******');
    expect(maskSecrets(':login ada', reg)).toBe(':login ada');
    expect(maskSecrets('hello', reg)).toBe('hello');
  });
});

describe('history (spec part 3)', () => {
  it('keeps 100 entries, newest first, without duplicates', () => {
    let history: string[] = [];
    for (let i = 0; i < 120; i++) history = pushHistory(history, `:cmd ${i}`);
    expect(history).toHaveLength(HISTORY_MAX);
    expect(history[0]).toBe(':cmd 119');
    history = pushHistory(history, ':cmd 50');
    expect(history[0]).toBe(':cmd 50');
    expect(history.filter((h) => h === ':cmd 50')).toHaveLength(1);
  });
  it('walks up to older entries and down to the line being typed', () => {
    const history = ['c', 'b', 'a'];
    expect(walkHistory(history, -1, 'up')).toBe(0);
    expect(walkHistory(history, 2, 'up')).toBe(2);
    expect(walkHistory(history, 0, 'down')).toBe(-1);
  });
});

describe('settings values', () => {
  const memLength = { key: 'memLength', type: 'number', default: 7, scope: 'tab' } as const;
  it('parses typed values by type', () => {
    expect(parseSettingInput(memLength, '3')).toEqual({ ok: true, value: 3 });
    expect(parseSettingInput(memLength, 'three')).toEqual({ ok: false, message: 'number' });
    expect(parseSettingInput({ key: 'x', type: 'boolean', default: false, scope: 'device' }, 'TRUE')).toEqual({ ok: true, value: true });
  });
  it('falls back to defaults for stored values of the wrong shape', () => {
    expect(coerceStored(memLength, '7; DROP TABLE')).toBe(7);
    expect(coerceStored({ key: 'h', type: 'list', default: [], scope: 'device' }, [1, 2])).toEqual([]);
    const store = createMemorySettings([memLength], { memLength: { evil: true } });
    expect(store.get('memLength')).toBe(7);
  });
});
