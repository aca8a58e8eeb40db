// Login expiry rules (spec part 5) and messages shared by the client and the server.

export const MESSAGES = {
  invalidExpiry: "Invalid expiration time. Please use 'h' for hours or 'd' for days.",
} as const;

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

/**
 * `:login` options: none → 24h; `--save` or `-s` → 7d; `--save 12h` → 12h. Anything else after
 * --save that is not Nh/Nd gives the spec's message.
 */
export function parseLoginOptions(options: string | undefined): { expiresIn: string } | { error: string } {
  const words = (options ?? '').split(/\s+/).filter(Boolean);
  if (!words.length) return { expiresIn: '24h' };
  if (words[0] !== '--save' && words[0] !== '-s') return { error: MESSAGES.invalidExpiry };
  if (words.length === 1) return { expiresIn: '7d' };
  if (words.length > 2 || loginExpiry(words[1]) === undefined) return { error: MESSAGES.invalidExpiry };
  return { expiresIn: words[1]! };
}
