// What the role plugin says (spec part 8: 'Role "x" does not exist.', 'No role found.', 'No role
// is set...'), shared by its rules, its server and its commands.
import { defineMessages } from '../../../src/core/messages.ts';
import { MAX_USER_ROLES, PROMPT_MAX, ROLE_NAME_MAX } from './limits.ts';

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
