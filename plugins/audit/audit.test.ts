// What the audit trail keeps of a value (no secret, bounded) and how `:audit` reads its filters.
import { describe, expect, it } from 'vitest';
import { parseFilters, parseTime } from './common/filters.ts';
import { AUDIT_VALUE_MAX } from './common/limits.ts';
import { keptText, keptValue } from './server/redact.ts';

describe('a kept value', () => {
  it('never holds a secret, under whatever key a caller used', () => {
    const kept = keptValue({ role: 'plus_user', password: 'p1', apiKey: 'k1', api_key: 'k2', token: 't1', nested: { clientSecret: 's1', key: 'k3', Authorization: 'Bearer x' }, list: [{ groupPassword: 'g1' }] });
    expect(JSON.parse(kept!)).toEqual({
      role: 'plus_user',
      password: '[redacted]',
      apiKey: '[redacted]',
      api_key: '[redacted]',
      token: '[redacted]',
      nested: { clientSecret: '[redacted]', key: '[redacted]', Authorization: '[redacted]' },
      list: [{ groupPassword: '[redacted]' }],
    });
    expect(kept).not.toMatch(/p1|k1|k2|k3|t1|s1|g1|Bearer/);
  });

  it('is bounded: long strings, deep and wide values are cut, and the JSON stays under its limit', () => {
    expect(JSON.parse(keptValue({ name: 'x'.repeat(10_000) })!).name).toHaveLength(256);
    expect(keptValue({ a: { b: { c: { d: { e: 1 } } } } })).toBe('{"a":{"b":{"c":{"d":"…"}}}}');
    expect(Object.keys(JSON.parse(keptValue(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i])))!))).toHaveLength(32);
    const wide = keptValue(Array.from({ length: 32 }, () => Array.from({ length: 32 }, () => 'y'.repeat(200))))!;
    expect(wide.length).toBeLessThanOrEqual(AUDIT_VALUE_MAX);
    expect(JSON.parse(wide)).toMatchObject({ truncated: true });
    expect(keptValue(undefined)).toBeNull();
    expect(keptValue(null)).toBeNull();
    expect(keptText('t'.repeat(1000))).toHaveLength(255);
  });
});

describe("`:audit`'s filters", () => {
  const now = Date.UTC(2026, 10, 27, 12);
  it('reads users, kinds, limits, spans back from now and dates', () => {
    expect(parseFilters('user=alice kind=user.* since=7d until=2026-11-27T10:00Z limit=20', now)).toEqual({
      ok: true,
      query: { user: 'alice', kind: 'user.*', since: now - 7 * 86_400_000, until: Date.UTC(2026, 10, 27, 10), limit: 20 },
    });
    expect(parseTime('30m', now)).toBe(now - 1_800_000);
    expect(parseTime('24h', now)).toBe(now - 86_400_000);
    expect(parseTime('2026-11-01', now)).toBe(Date.UTC(2026, 10, 1));
    expect(parseFilters('', now)).toEqual({ ok: true, query: {} });
  });
  it('refuses what it does not know, in its own words', () => {
    expect(String((parseFilters('alice', now) as { error: unknown }).error)).toBe('Unknown filter "alice". Filters are: user, kind, since, until, limit (e.g. user=alice kind=user.role since=7d).');
    expect(String((parseFilters('user=', now) as { error: unknown }).error)).toMatch(/^Unknown filter "user="/);
    expect(String((parseFilters('since=soon', now) as { error: unknown }).error)).toMatch(/^Invalid time "soon"/);
    expect(String((parseFilters('until=2026-13-45', now) as { error: unknown }).error)).toMatch(/^Invalid time/);
    expect(String((parseFilters('limit=201', now) as { error: unknown }).error)).toBe('Invalid limit. It is a whole number from 1 to 200.');
  });
});
