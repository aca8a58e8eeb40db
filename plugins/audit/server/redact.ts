// Nothing secret reaches the audit trail, whatever a caller hands it: values under a key that
// names a secret are replaced, long strings and deep or wide values are cut, and the JSON kept
// is bounded (AUDIT_VALUE_MAX).
import { AUDIT_TEXT_MAX, AUDIT_VALUE_MAX } from '../common/limits.ts';

/** Keys whose values are never kept: passwords, tokens, API keys, secrets, cookies. */
const SECRET_KEY = /pass(word)?|secret|token|api_?key|^key$|cookie|authorization|credential|signature/i;
const DEPTH_MAX = 4;
const ENTRIES_MAX = 32;

function clean(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > AUDIT_TEXT_MAX ? `${value.slice(0, AUDIT_TEXT_MAX)}…` : value;
  if (typeof value !== 'object' || depth >= DEPTH_MAX) return value === undefined ? null : '…';
  if (Array.isArray(value)) return value.slice(0, ENTRIES_MAX).map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>).slice(0, ENTRIES_MAX)) {
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : clean(v, depth + 1);
  }
  return out;
}

/** The JSON kept for a before or after value; null when there is none. */
export function keptValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const json = JSON.stringify(clean(value, 0));
  return json.length > AUDIT_VALUE_MAX ? JSON.stringify({ truncated: true, chars: json.length }) : json;
}

/** A short text column (target, actor, address, kind), cut to its column's size. */
export const keptText = (value: string | null): string | null => (value === null ? null : value.slice(0, AUDIT_TEXT_MAX));
