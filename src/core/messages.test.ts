import { describe, expect, it } from 'vitest';
import type { Translate } from './contract.ts';
import { error, text } from './output.ts';
import { defineMessages, Message, MessageError, messageTemplates, saidBy, translateMessage } from './messages.ts';

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
    },
    { max: 100 },
  );

  it('gives each entry as a message with its code, its values (fixed ones included) and its English', () => {
    expect(M.plain).toBeInstanceOf(Message);
    expect(M.plain.toData()).toEqual({ code: 'demo.plain', params: {}, text: 'No role found.' });
    expect(M.tooMany.toData()).toEqual({ code: 'demo.tooMany', params: { max: 100 }, text: 'You can keep at most 100 roles.' });
    expect(M.moved('n1', 'bob').toData()).toEqual({ code: 'demo.moved', params: { name: 'n1', owner: 'bob' }, text: 'Node "n1" now belongs to bob.' });
    // Its English wherever a string is made of it, JSON included (the API's `error` stays text).
    expect(`${M.notExist('x')}`).toBe('Role "x" does not exist.');
    expect(JSON.stringify({ error: M.plain })).toBe('{"error":"No role found."}');
    expect(messageTemplates(M)).toMatchObject({ namespace: 'demo', templates: { tooMany: 'You can keep at most {{max}} roles.' } });
    expect(Object.keys(M)).toEqual(['notExist', 'tooMany', 'moved', 'plain']);
  });

  it('translates by code, values and all, and falls back to the English for a missing key', () => {
    expect(translateMessage(M.notExist('a "quoted" one'), tFor)).toBe('角色“a "quoted" one”不存在。');
    expect(translateMessage(M.tooMany, tFor)).toBe('最多 100 个。');
    expect(translateMessage(M.moved('n1', 'group:team').toData(), tFor)).toBe('group:team 现在拥有 n1。');
    expect(translateMessage(M.plain, tFor)).toBe('No role found.');
  });

  it('never translates text: user data that reads like a message stays as it is', () => {
    // Before, outputs were matched against every template; now only a code is translated.
    expect(text('Role "x" does not exist.')).toEqual({ kind: 'text', text: 'Role "x" does not exist.' });
    expect(error(M.notExist('x'))).toEqual({ kind: 'error', text: 'Role "x" does not exist.', message: M.notExist('x').toData() });
  });

  it('translates nested messages (a reason inside a refusal) in turn', () => {
    const N = defineMessages('demo', { refused: 'Refused {{host}} ({{reason}}).', loopback: 'loopback address', mapped: 'IPv4-mapped {{reason}}' });
    const zh: Record<string, string> = { 'err.refused': '已拒绝 {{host}}（{{reason}}）。', 'err.loopback': '环回地址', 'err.mapped': 'IPv4 映射的{{reason}}' };
    const t = () => ((key: string, vars?: Record<string, unknown>) => (zh[key] ?? String(vars?.defaultValue)).replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(vars?.[n] ?? ''))) as Translate;
    const said = N.refused('::ffff:7f00:1', N.mapped(N.loopback));
    expect(said.text).toBe('Refused ::ffff:7f00:1 (IPv4-mapped loopback address).');
    expect(translateMessage(said, t)).toBe('已拒绝 ::ffff:7f00:1（IPv4 映射的环回地址）。');
    // Over JSON too (the server's answer), and a host named like a message is only a host.
    expect(translateMessage(JSON.parse(JSON.stringify(said.toData())), t)).toBe('已拒绝 ::ffff:7f00:1（IPv4 映射的环回地址）。');
    expect(translateMessage(N.refused('loopback address', 'odd'), t)).toBe('已拒绝 loopback address（odd）。');
  });

  it('keeps the message an error carries', () => {
    expect(saidBy(new MessageError(M.plain))).toBe(M.plain);
    expect(saidBy(new MessageError('plain text'))).toBe('plain text');
    expect(saidBy(new Error('other'))).toBe('other');
  });
});
