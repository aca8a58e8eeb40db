// The names and limits of API keys: what the rules check and the messages state.
export const KEY_PREFIX = 'sk-sc-';
/** Random bytes of a key (base64url after the prefix): 256 bits. */
export const KEY_BYTES = 32;
/** How much of a key `:key ls` shows, to tell keys apart: the prefix and 6 characters. */
export const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 6;
export const KEY_NAME_MAX = 64;
export const MAX_KEYS_PER_USER = 20;
/** The longest life a key may be given (`--expires 365d`). */
export const EXPIRES_MAX_DAYS = 365;
/** The flags of `:key add`, as its usage line shows them. */
export const ADD_FLAGS = '[--expires 30d] [--role <name>] [--store <name>] [--model "<name>"] [--no-log]';
