import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';

describe('stats plugin', () => {
  it(':stats on|off switches the stats block', async () => {
    const t = await createShellTester({ plugins: ['stats'] });
    expect((await t.run(':stats on')).text).toBe('Stats on.');
    expect(t.settings.get('useStats')).toBe(true);
    expect((await t.run(':stats off')).text).toBe('Stats off.');
    expect(t.settings.get('useStats')).toBe(false);
  });
  it(':eval on says it doubles token use', async () => {
    const t = await createShellTester({ plugins: ['stats'] });
    expect((await t.run(':eval on')).text).toMatch(/doubles token use/);
    expect(t.settings.get('useEval')).toBe(true);
    expect((await t.run(':eval off')).text).toBe('Self-evaluation off.');
  });
});
