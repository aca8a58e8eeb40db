// Login expiry rules (spec part 5) and messages shared by the client and the server.
import { defineMessages, type Message } from '../../../src/core/messages.ts';
import { usageOf } from '../../../src/core/registry.ts';
import manifest from '../manifest.ts';

/** A command's syntax as `:help` shows it (`:user add <username> <email> [<password>]`). */
const syntax = (id: string) => usageOf(manifest.commands!.find((c) => c.id === id)!);

// Also what the account API answers in words, so that the browser shows it in the interface's
// language (src/core/messages.ts).
export const MESSAGES = defineMessages('user', {
  invalidExpiry: "Invalid expiration time. Please use 'h' for hours or 'd' for days.",
  expiryTooShort: 'Invalid expiration time. A login lasts at least 1h.',
  loginExtra: 'Only --save (or -s) may follow the password. A password with spaces goes in double quotes.',
  usageLimit: 'The usage limitation has been reached.',
  // What one can do next (issue 33): a user waits for the rolling window, a visitor can also sign up or log in.
  usageLimitUser: 'The usage limitation has been reached. You can ask again in {{wait}}.',
  usageLimitVisitor: 'The usage limitation has been reached. Sign up with {{signUp}} or log in with {{logIn}}, or ask again in {{wait}}.',
  usageLimitSignUp: 'The usage limitation has been reached. Sign up with {{signUp}} or log in with {{logIn}}.',
  waitMinutes: '{{n}} minutes',
  waitHours: '{{n}} hours',
  waitDays: '{{n}} days',
  tooManyLogins: 'Too many failed logins. Try again in {{minutes}} minutes.',
  tooManyJoins: 'Too many wrong group passwords. Try again in {{minutes}} minutes.',
  badLogin: 'Incorrect username or password.',
  loggedIn: 'Logged in as {{name}}.',
  loggedOut: 'Logged out.',
  notLoggedIn: 'Not logged in.',
  tooManySignups: 'Too many sign-ups from this address. Try again later.',
  settingsNotJson: 'Invalid settings: not JSON.',
  addedShown: 'User {{name}} added. Your password is {{password}}. It is shown only once.',
  addedMailed: 'User {{name}} added. Your password was sent to {{email}}.',
  added: 'User {{name}} added.',
  userNotFound: 'User not found.',
  cannotDelete: 'You cannot delete this user.',
  removed: 'User removed.',
  settingUpdated: 'Setting updated.',
  settingReset: 'Setting reset.',
  settingsReset: 'Settings reset.',
  passwordUpdated: 'Password updated.',
  mailOff: 'E-mail is not configured on this server.',
  resetSent: 'If the username and e-mail address match an account, a password reset link is on its way.',
  cannotJoin: 'You cannot join groups.',
  joined: 'Joined group {{group}}.',
  left: 'Left group {{group}}.',
  rootBalances: 'Only root can change balances.',
  balanceUpdated: 'Balance updated.',
  rootRoles: 'Only root can change roles.',
  roleUpdated: 'Role updated.',
  crossOrigin: 'Cross-origin request refused.',
  emailInvalid: 'Email is invalid.',
  invited: 'Invitation sent to {{email}}.',
  linkInvalid: 'This link is invalid.',
  subscribed: 'Subscribed.',
  unsubscribed: 'Unsubscribed.',
  hasAccount: 'This address already has an account.',
  invitedToday: 'You already invited {{email}} today.',
  verifySent: 'A verification link was sent to {{email}}. Your e-mail address changes when you follow it.',
}, { signUp: syntax('user.add'), logIn: syntax('login') });

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
