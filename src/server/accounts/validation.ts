// Account field rules (spec part 5) with the messages the user sees.

export const USERNAME = /^[a-z][a-z0-9_-]{0,31}$/;

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function usernameError(username: string): string | undefined {
  return USERNAME.test(username)
    ? undefined
    : 'Username must start with a letter and hold at most 32 letters, digits, underscores or hyphens.';
}

/** Spec part 5: exactly one @ with non-empty parts, else 'Email is invalid.' */
export function emailError(email: string): string | undefined {
  const parts = email.split('@');
  const ok = parts.length === 2 && parts[0]!.length > 0 && parts[1]!.length > 0 && !/\s/.test(email) && email.length <= 254;
  return ok ? undefined : 'Email is invalid.';
}

export function passwordError(password: string): string | undefined {
  if (password.length < 8) return 'Password must be at least 8 characters.';
  if (password.length > 64) return 'Password must be at most 64 characters.';
  return undefined;
}

