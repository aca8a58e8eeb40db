// Login expiry rules (spec part 5) and how long a use limit makes one wait, shared by the client
// and the server.
import type { Message } from '../../../src/core/messages.ts';
import { MESSAGES } from './messages.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The longest a login may last, whatever is asked for. */
export const MAX_LOGIN_MS = 365 * DAY;

/** `24h` by default; `Nh` or `Nd`; undefined when malformed (spec part 5). */
export function loginExpiry(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return DAY;
  const m = /^(\d{1,5})([hd])$/.exec(value.trim());
  if (!m || Number(m[1]) < 1) return undefined;
  return Math.min(Number(m[1]) * (m[2] === 'h' ? HOUR : DAY), MAX_LOGIN_MS);
}

/** Why an expiry value is refused: the spec's message for a wrong unit, another for zero. */
export function expiryProblem(value: string | undefined): Message | undefined {
  if (loginExpiry(value) !== undefined) return undefined;
  return /^\d{1,5}[hd]$/.test((value ?? '').trim()) ? MESSAGES.expiryTooShort : MESSAGES.invalidExpiry;
}

/**
 * `:login` options: none → 24h; `--save` or `-s` → 7d; `--save 12h` → 12h. Anything else after
 * --save that is not Nh/Nd gives the spec's message.
 */
export function parseLoginOptions(options: string | undefined): { expiresIn: string } | { error: Message } {
  const words = (options ?? '').split(/\s+/).filter(Boolean);
  if (!words.length) return { expiresIn: '24h' };
  // Words after the password that are not --save: most likely a password with spaces.
  if (words[0] !== '--save' && words[0] !== '-s') return { error: MESSAGES.loginExtra };
  if (words.length === 1) return { expiresIn: '7d' };
  if (words.length > 2) return { error: MESSAGES.invalidExpiry };
  const problem = expiryProblem(words[1]);
  if (problem) return { error: problem };
  return { expiresIn: words[1]! };
}

/**
 * How long until a limit lets the next question through, in words: minutes below two hours,
 * hours below two days, else days; rounded up, so never sooner than said (and never under 2,
 * so every language's plural fits).
 */
export function waitFor(ms: number): Message {
  const minutes = Math.max(2, Math.ceil(ms / 60_000));
  if (minutes < 120) return MESSAGES.waitMinutes(minutes);
  const hours = Math.ceil(ms / 3_600_000);
  if (hours < 48) return MESSAGES.waitHours(hours);
  return MESSAGES.waitDays(Math.ceil(ms / 86_400_000));
}
