// Role rules shared by the commands and the server: names, prompts and the messages of spec
// part 8 ('Role "x" does not exist.', 'No role found.', 'No role is set...').
import { defineMessages, type Message } from '../../../src/core/messages.ts';

/** Longest role name (characters). */
export const ROLE_NAME_MAX = 64;
/** Longest prompt (characters). */
export const PROMPT_MAX = 8000;
/** How many roles one user may keep. */
export const MAX_USER_ROLES = 100;

export const MESSAGES = defineMessages(
  'role',
  {
    notExist: 'Role "{{name}}" does not exist.',
    noneFound: 'No role found.',
    noneSet: 'No role is set...',
    invalidName: 'Invalid role name.',
    nameTooLong: 'Role name must be at most {{nameMax}} characters.',
    emptyPrompt: 'Prompt must not be empty.',
    promptTooLong: 'Prompt must be at most {{promptMax}} characters.',
    exists: 'Role "{{name}}" already exists.',
    tooMany: 'You can keep at most {{rolesMax}} roles.',
    added: 'Role "{{name}}" added.',
    updated: 'Role "{{name}}" updated.',
    deleted: 'Role "{{name}}" deleted.',
  },
  { nameMax: ROLE_NAME_MAX, promptMax: PROMPT_MAX.toLocaleString('en-US'), rolesMax: MAX_USER_ROLES },
);

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
export function checkRoleName(name: string): Message | undefined {
  if (!name.trim() || CONTROL.test(name) || name !== name.trim()) return MESSAGES.invalidName;
  if ([...name].length > ROLE_NAME_MAX) return MESSAGES.nameTooLong;
  return undefined;
}

/** The problem with a prompt, or undefined when it is fine. */
export function checkPrompt(prompt: string): Message | undefined {
  if (!prompt.trim()) return MESSAGES.emptyPrompt;
  if ([...prompt].length > PROMPT_MAX) return MESSAGES.promptTooLong;
  return undefined;
}
