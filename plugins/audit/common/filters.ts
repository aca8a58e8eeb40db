// `:audit`'s words (user=alice kind=user.* since=7d) into the route's query, with times made
// absolute here, where "7d" means seven days back from the person's clock.
import type { Message } from '../../../src/core/index.ts';
import { AUDIT_FILTERS, AUDIT_PAGE_MAX, type AuditQuery } from './limits.ts';
import { MESSAGES } from './messages.ts';

const SPAN = /^(\d{1,6})([mhd])$/;
const UNIT = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A time filter: a span back from `now` (30m, 24h, 7d), a date or a date and time, or ms since the epoch. */
export function parseTime(value: string, now: number): number | undefined {
  const span = SPAN.exec(value);
  if (span) return now - Number(span[1]) * UNIT[span[2] as keyof typeof UNIT];
  if (/^\d{10,14}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value)) return undefined;
  const at = Date.parse(value.replace(' ', 'T'));
  return Number.isFinite(at) ? at : undefined;
}

export function parseFilters(words: string, now: number): { ok: true; query: AuditQuery } | { ok: false; error: Message } {
  const query: AuditQuery = {};
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf('=');
    const key = eq > 0 ? word.slice(0, eq) : '';
    const value = word.slice(eq + 1);
    if (!(AUDIT_FILTERS as readonly string[]).includes(key) || !value) return { ok: false, error: MESSAGES.badFilter(word) };
    if (key === 'user') query.user = value;
    else if (key === 'kind') query.kind = value;
    else if (key === 'limit') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > AUDIT_PAGE_MAX) return { ok: false, error: MESSAGES.badLimit };
      query.limit = n;
    } else {
      const at = parseTime(value, now);
      if (at === undefined) return { ok: false, error: MESSAGES.badTime(value) };
      query[key as 'since' | 'until'] = at;
    }
  }
  return { ok: true, query };
}
