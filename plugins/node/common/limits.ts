// The kinds, keys and limits of nodes: what the rules check and the messages state.
export const NODE_KINDS = ['openai', 'ollama', 'http'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const NODE_SETTING_KEYS = ['kind', 'base_url', 'api_key', 'model', 'prompt_template', 'timeout_ms', 'description'] as const;
export type NodeSettingKey = (typeof NODE_SETTING_KEYS)[number];

/** Spec part 9: at most 32 characters; letters, digits, underscore, hyphen. */
export const NODE_NAME_MAX = 32;
/** How many nodes one user may own. */
export const MAX_USER_NODES = 10;
export const BASE_URL_MAX = 255;
export const VALUE_MAX = 4096;
export const TIMEOUT_MIN = 1_000;
export const TIMEOUT_MAX = 120_000;
export const DEFAULT_TIMEOUT_MS = 30_000;
