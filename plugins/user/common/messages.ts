// What the user plugin says: login expiry (spec part 5), use limits, and what the account API
// answers in words, so that the browser shows it in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';
import { usageOf } from '../../../src/core/registry.ts';
import manifest from '../manifest.ts';

/** A command's syntax as `:help` shows it (`:user add <username> <email> [<password>]`). */
const syntax = (id: string) => usageOf(manifest.commands!.find((c) => c.id === id)!);

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
