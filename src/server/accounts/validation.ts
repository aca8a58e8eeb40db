// Account field rules (spec part 5) with the messages the user sees.
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from '../../core/constants.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export const USERNAME = new RegExp(`^[a-z][a-z0-9_-]{0,${USERNAME_MAX - 1}}$`);

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function usernameError(username: string): Message | undefined {
  return USERNAME.test(username) ? undefined : SERVER_MESSAGES.usernameRule;
}

/** Spec part 5: exactly one @ with non-empty parts, else 'Email is invalid.' */
export function emailError(email: string): Message | undefined {
  const parts = email.split('@');
  const ok = parts.length === 2 && parts[0]!.length > 0 && parts[1]!.length > 0 && !/\s/.test(email) && email.length <= 254;
  return ok ? undefined : SERVER_MESSAGES.emailInvalid;
}

export function passwordError(password: string): Message | undefined {
  if (password.length < PASSWORD_MIN) return SERVER_MESSAGES.passwordShort;
  if (password.length > PASSWORD_MAX) return SERVER_MESSAGES.passwordLong;
  return undefined;
}


/**
 * A group password a person chooses (`:user set groupPassword`): at least 12 characters mixing
 * lower-case and upper-case letters and digits ('mallory1' is not). The generated ones are the
 * spec's 8 random letters and digits; a chosen one is more often a word and a digit.
 */
export function groupPasswordWeak(password: string): boolean {
  return password.length < 12 || !/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[0-9]/.test(password);
}
