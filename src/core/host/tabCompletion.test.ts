import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../../tests/harness/shellTester.ts';
import { completeLine } from './tabCompletion.ts';

const tester = await createShellTester();
const complete = (line: string) =>
  completeLine(line, tester.host.registry, {
    settingKeys: () => tester.settings.specs().filter((s) => s.settable !== false).map((s) => s.key),
    provider: async (source) => (source === 'voice' ? async () => ['Alice', 'Bob Smith'] : undefined),
  });

describe('Tab completion (spec part 2)', () => {
  it('completes command words', async () => {
    expect(await complete(':the')).toEqual({ base: ':', candidates: ['theme'] });
    expect((await complete(':lang ')).candidates).toEqual(['ls', 'list', 'use', 'reset']);
  });
  it('completes theme names', async () => {
    expect(await complete(':theme d')).toEqual({ base: ':theme ', candidates: ['dark'] });
  });
  it('completes language codes by prefix', async () => {
    expect((await complete(':lang use zh')).candidates).toEqual(['zh-CN', 'zh-HK', 'zh-TW']);
  });
  it('completes setting keys case-insensitively', async () => {
    expect((await complete(':set mem')).candidates).toEqual(['memLength']);
    expect((await complete(':set USE')).candidates).toContain('useStats');
  });
  it('completes voices from the speak plugin, quoted', async () => {
    expect(await complete(':voice use B')).toEqual({ base: ':voice use ', candidates: ['"Bob Smith"'] });
    expect(await complete(':voice use "A')).toEqual({ base: ':voice use ', candidates: ['"Alice"'] });
  });
  it('completes on/off and help topics', async () => {
    expect((await complete(':stats o')).candidates).toEqual(['on', 'off']);
    expect((await complete(':help lan')).candidates).toContain('lang use');
  });
  it('offers nothing for chat text', async () => {
    expect((await complete('hello')).candidates).toEqual([]);
  });
});
