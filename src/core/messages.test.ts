import { describe, expect, it } from 'vitest';
import type { Translate } from './contract.ts';
import { defineMessages, localizeMessage, messageTemplates } from './messages.ts';

// A translate function over a small table, with i18next's interpolation and defaultValue.
const table: Record<string, Record<string, string>> = {
  demo: { 'err.notExist': '角色“{{name}}”不存在。', 'err.tooMany': '最多 {{max}} 个。', 'err.moved': '{{owner}} 现在拥有 {{name}}。' },
};
const tFor = (ns: string): Translate => (key, vars) => {
  const template = table[ns]?.[key];
  if (!template) return String(vars?.defaultValue ?? key);
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
};

describe('defineMessages', () => {
  const M = defineMessages(
    'demo',
    {
      notExist: 'Role "{{name}}" does not exist.',
      tooMany: 'You can keep at most {{max}} roles.',
      moved: 'Node "{{name}}" now belongs to {{owner}}.',
      plain: 'No role found.',
      dotted: 'Only a.b (c) [d] costs $1?',
    },
    { max: 100 },
  );

  it('keeps the shapes the code calls: text, or a function of the holes in order', () => {
    expect(M.plain).toBe('No role found.');
    expect(M.tooMany).toBe('You can keep at most 100 roles.');
    expect(M.notExist('x')).toBe('Role "x" does not exist.');
    expect(M.moved('n1', 'bob')).toBe('Node "n1" now belongs to bob.');
    expect(messageTemplates(M)).toMatchObject({ namespace: 'demo', templates: { tooMany: 'You can keep at most {{max}} roles.' } });
    // The catalogue rides along unseen: the entries are all there is to enumerate.
    expect(Object.keys(M)).toEqual(['notExist', 'tooMany', 'moved', 'plain', 'dotted']);
  });

  it('translates a message back from its English text, values included', () => {
    expect(localizeMessage('Role "a "quoted" one" does not exist.', [M], tFor)).toBe('角色“a "quoted" one”不存在。');
    expect(localizeMessage('You can keep at most 100 roles.', [M], tFor)).toBe('最多 100 个。');
    expect(localizeMessage('Node "n1" now belongs to group:team.', [M], tFor)).toBe('group:team 现在拥有 n1。');
  });

  it('leaves other text, near misses and untranslated keys as they are', () => {
    expect(localizeMessage('Role "x" does not exist. Really.', [M], tFor)).toBe('Role "x" does not exist. Really.');
    expect(localizeMessage('You can keep at most 99 roles.', [M], tFor)).toBe('You can keep at most 99 roles.');
    expect(localizeMessage('No role found.', [M], tFor)).toBe('No role found.');
    expect(localizeMessage('Only a.b (c) [d] costs $1?', [M], tFor)).toBe('Only a.b (c) [d] costs $1?');
    expect(localizeMessage('Only aXb (c) [d] costs $1?', [M], tFor)).toBe('Only aXb (c) [d] costs $1?');
    expect(localizeMessage('Role "x" does not exist.', [], tFor)).toBe('Role "x" does not exist.');
    // Another namespace's catalogue does not know it.
    expect(localizeMessage('Role "x" does not exist.', [defineMessages('other', { a: 'A.' })], tFor)).toBe('Role "x" does not exist.');
  });

  it('leaves a long text alone, whatever it ends with', () => {
    const long = `Role "${'x'.repeat(5000)}" does not exist.`;
    expect(localizeMessage(long, [M], tFor)).toBe(long);
  });

  it('translates the values of nested holes in turn', () => {
    const N = defineMessages('demo', { refused: 'Refused {{host}} ({{reason}}).', loopback: 'loopback address', mapped: 'IPv4-mapped {{reason}}' }, {}, { nested: ['reason'] });
    const zh: Record<string, string> = { 'err.refused': '已拒绝 {{host}}（{{reason}}）。', 'err.loopback': '环回地址', 'err.mapped': 'IPv4 映射的{{reason}}' };
    const t = () => ((key: string, vars?: Record<string, unknown>) => (zh[key] ?? String(vars?.defaultValue)).replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(vars?.[n] ?? ''))) as Translate;
    expect(localizeMessage(N.refused('::ffff:7f00:1', N.mapped(N.loopback)), [N], t)).toBe('已拒绝 ::ffff:7f00:1（IPv4 映射的环回地址）。');
    // A host is not a nested hole: a host named like a message stays as it is.
    expect(localizeMessage(N.refused('loopback address', 'odd'), [N], t)).toBe('已拒绝 loopback address（odd）。');
  });

  it('matches a multi-line value', () => {
    expect(localizeMessage('Role "a\nb" does not exist.', [M], tFor)).toBe('角色“a\nb”不存在。');
  });
});
