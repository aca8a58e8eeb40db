import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';

describe(':info', () => {
  it('shows connectivity, server, model, language and the info settings', async () => {
    const t = await createShellTester({ systemInfo: { model: 'gpt-demo' }, settings: { lang: 'zh-CN', session: 1700000000000 } });
    const out = (await t.run(':info')).outputs[0]!;
    expect(out.kind).toBe('table');
    const rows = out.kind === 'table' ? Object.fromEntries(out.rows.map(([k, v]) => [k, v])) : {};
    expect(rows).toMatchObject({
      Status: 'online',
      Server: 'http://localhost:3000',
      Model: 'gpt-demo',
      Language: 'Chinese (Simplified, China) (zh-CN)',
      session: '1700000000000',
      theme: 'light',
      useStats: 'false',
    });
    t.setOnline(false);
    expect((await t.run(':i')).text).toContain('offline');
  });
});
