// Role rules shared by the commands and the server: names, prompts and the messages of spec
// part 8 ('Role "x" does not exist.', 'No role found.', 'No role is set...').

/** Longest role name (characters). */
export const ROLE_NAME_MAX = 64;
/** Longest prompt (characters). */
export const PROMPT_MAX = 8000;
/** How many roles one user may keep. */
export const MAX_USER_ROLES = 100;

export const MESSAGES = {
  notExist: (name: string) => `Role "${name}" does not exist.`,
  noneFound: 'No role found.',
  noneSet: 'No role is set...',
  invalidName: 'Invalid role name.',
  nameTooLong: `Role name must be at most ${ROLE_NAME_MAX} characters.`,
  emptyPrompt: 'Prompt must not be empty.',
  promptTooLong: `Prompt must be at most ${PROMPT_MAX.toLocaleString('en-US')} characters.`,
  exists: (name: string) => `Role "${name}" already exists.`,
  tooMany: `You can keep at most ${MAX_USER_ROLES} roles.`,
  added: (name: string) => `Role "${name}" added.`,
  updated: (name: string) => `Role "${name}" updated.`,
  deleted: (name: string) => `Role "${name}" deleted.`,
} as const;

/** A role as the API shows it. */
export interface PublicRole {
  name: string;
  prompt: string;
}

export interface RoleLists {
  user_roles: PublicRole[];
  system_roles: PublicRole[];
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** The problem with a role name, or undefined when it is fine. */
export function checkRoleName(name: string): string | undefined {
  if (!name.trim() || CONTROL.test(name) || name !== name.trim()) return MESSAGES.invalidName;
  if ([...name].length > ROLE_NAME_MAX) return MESSAGES.nameTooLong;
  return undefined;
}

/** The problem with a prompt, or undefined when it is fine. */
export function checkPrompt(prompt: string): string | undefined {
  if (!prompt.trim()) return MESSAGES.emptyPrompt;
  if ([...prompt].length > PROMPT_MAX) return MESSAGES.promptTooLong;
  return undefined;
}
