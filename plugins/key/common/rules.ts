// The rules of `:key add`, checked in the browser and the CLI before a request and again on the
// server: the name, the expiry (`30d`, `12h`) and the flags that scope a key.
import type { Message } from '../../../src/core/index.ts';
import { EXPIRES_MAX_DAYS, KEY_NAME_MAX } from './limits.ts';
import { MESSAGES } from './messages.ts';

const NAME = new RegExp(`^[A-Za-z0-9._-]{1,${KEY_NAME_MAX}}$`);

export function checkKeyName(name: string): Message | undefined {
  return NAME.test(name) ? undefined : MESSAGES.invalidName;
}

/** `30d` or `12h` in milliseconds, or undefined when it is not one (or past the longest life). */
export function expiresIn(text: string): number | undefined {
  const m = /^(\d{1,4})([dh])$/.exec(text.trim().toLowerCase());
  if (!m) return undefined;
  const ms = Number(m[1]) * (m[2] === 'd' ? 86_400_000 : 3_600_000);
  return ms > 0 && ms <= EXPIRES_MAX_DAYS * 86_400_000 ? ms : undefined;
}

/** What `:key add` sends: the key's name and scope. */
export interface KeyAddInput {
  name: string;
  expires?: string;
  role?: string;
  stores?: string;
  model?: string;
  no_log?: boolean;
}

/** The words after the name (`--expires 30d --role coder --store docs --model gpt-4o --no-log`), or why not. */
export function parseAddFlags(words: string[]): { ok: true; value: Omit<KeyAddInput, 'name'> } | { ok: false; error: Message } {
  const value: Omit<KeyAddInput, 'name'> = {};
  const stores: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const flag = words[i]!.toLowerCase();
    if (flag === '--no-log') {
      value.no_log = true;
      continue;
    }
    if (!['--expires', '--role', '--store', '--model'].includes(flag)) return { ok: false, error: MESSAGES.unknownFlag(words[i]!) };
    const given = words[++i];
    if (given === undefined || given.startsWith('--')) return { ok: false, error: MESSAGES.missingValue(flag) };
    if (flag === '--expires') {
      if (expiresIn(given) === undefined) return { ok: false, error: MESSAGES.invalidExpires };
      value.expires = given;
    } else if (flag === '--role') value.role = given;
    else if (flag === '--store') stores.push(given);
    else value.model = given;
  }
  if (stores.length) value.stores = stores.join(',');
  return { ok: true, value };
}
