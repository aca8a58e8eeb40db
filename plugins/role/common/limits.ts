// The limits of roles: what the rules check and the messages state.
/** Longest role name (characters). */
export const ROLE_NAME_MAX = 64;
/** Longest prompt (characters). */
export const PROMPT_MAX = 8000;
/** How many roles one user may keep. */
export const MAX_USER_ROLES = 100;
