// Business constants and limits of spec part 9, in one place so that the shell, the server,
// the CLI and the tests all read the same numbers.

export const HISTORY_MAX = 100;
export const MAX_ACTIVE_STORES = 3;
export const DEFAULT_MEM_LENGTH = 7;
/** The most turns a question may remember (memLength; the server refuses more). */
export const MEM_LENGTH_MAX = 100;
export const LOGIN_EXPIRY_DEFAULT = '24h';
export const LOGIN_EXPIRY_SAVE = '7d';
/** Session ids are millisecond timestamps strictly inside this range. */
export const SESSION_ID_MIN = 1669766400000;
export const SESSION_ID_MAX = 2016921600000;
export const NODE_NAME_MAX = 32;
export const STORE_ENGINES = ['file', 'mysql'] as const;
export const THEMES = ['light', 'dark', 'terminal'] as const;
export type Theme = (typeof THEMES)[number];
export const FULLSCREEN_MODES = ['off', 'default', 'split'] as const;
export type FullscreenMode = (typeof FULLSCREEN_MODES)[number];
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_EXTENSIONS = ['jpeg', 'jpg', 'png', 'pdf', 'docx', 'txt', 'md', 'csv', 'json'] as const;
export const PING_TIMEOUT_MS = 2000;
export const MCP_HEALTH_TIMEOUT_MS = 300;
export const MCP_CALL_TIMEOUT_MS = 60_000;
export const OLLAMA_HEALTH_TIMEOUT_MS = 100;
/** How long a command runs before the page and the terminal say it is running: a fast one never flashes it. */
export const WORKING_DELAY_MS = 300;
export const PHONE_BREAKPOINT_PX = 768;
export const INPUT_MIN_HEIGHT_PX = 45;
export const PREVIEW_LENGTH = 150;
/** The longest input a turn takes (characters; the browser checks it before sending). */
export const USER_INPUT_MAX = 200_000;
export const PLACEHOLDER_LENGTH = 20;
/** A placeholder at least this wide (CJK counting 2) is shortened. */
export const PLACEHOLDER_MAX_WIDTH = 45;
export const DEFAULT_PLACEHOLDER = ':help';
export const DEFAULT_TEMPERATURE = 1;
export const DEFAULT_TOP_P = 1;
export const SPEECH = { volume: 0.7, rate: 1, pitch: 1.1 } as const;
export const ROLE_RANKS = { user: 1, plus_user: 2, super_user: 3, root_user: 4 } as const;
export const NUMBER_ROUNDING_DECIMALS = 5;

/**
 * Commands whose arguments carry a password (spec part 5). The manifests mark the secret
 * argument precisely; this list is a safety net so that a line is never kept in history
 * even when the plugin that owns the command is not installed or the line has a typo.
 */
export const SECRET_COMMAND_PREFIXES: readonly string[][] = [
  ['login'],
  ['user', 'add'],
  ['user', 'set', 'pass'],
  ['user', 'join'],
];

/** Account rules (spec part 5): a username is a letter and at most 31 more characters; passwords 8 to 64. */
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

/** The copyright year the product shows (spec part 1), at the foot of the back view. */
export const COPYRIGHT_YEAR = 2023;
