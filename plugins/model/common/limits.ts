// The names and limits of user models: what the rules check and the messages state.
export const MODEL_PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google', 'ollama'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const MODEL_SETTING_KEYS = [
  'provider',
  'model',
  'base_url',
  'api_key',
  'price_input',
  'price_output',
  'vision',
  'tools',
  'image',
  'reasoning',
  'context_window',
  'shared',
] as const;
export type ModelSettingKey = (typeof MODEL_SETTING_KEYS)[number];

/** How many models one user may add. */
export const MAX_USER_MODELS = 50;
export const MODEL_NAME_MAX = 64;
export const MODEL_ID_MAX = 128;
/** The models table keeps base URLs in an indexed-size column. */
export const BASE_URL_MAX = 255;
export const API_KEY_MAX = 4096;
