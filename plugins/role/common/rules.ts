// Role rules shared by the commands and the server: names and prompts.
import type { Message } from '../../../src/core/messages.ts';
import { PROMPT_MAX, ROLE_NAME_MAX } from './limits.ts';
import { MESSAGES } from './messages.ts';

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
