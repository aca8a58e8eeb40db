// The rules of user models, shared by the server (which decides) and the commands (which
// report a mistake before a round trip): names, providers, and every `:model set` key.
import type { ModelCapabilities } from '../../../src/core/index.ts';
import type { Message } from '../../../src/core/messages.ts';
import { API_KEY_MAX, BASE_URL_MAX, MODEL_ID_MAX, MODEL_NAME_MAX, MODEL_PROVIDERS, MODEL_SETTING_KEYS, type ModelSettingKey } from './limits.ts';
import { MESSAGES } from './messages.ts';

// Names travel percent-encoded in the path of GET /api/model/{name}.
const NAME = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,${MODEL_NAME_MAX - 1}}$`);
const MODEL_ID = new RegExp(`^[^\\s\\u0000-\\u001f]{1,${MODEL_ID_MAX}}$`);

export function checkModelName(name: string): Message | undefined {
  return NAME.test(name) ? undefined : MESSAGES.invalidName;
}

/** The syntax of a base URL; the server also checks where it points (egress policy). */
export function checkBaseUrlSyntax(raw: string): Message | undefined {
  if (raw.length > BASE_URL_MAX) return MESSAGES.urlTooLong;
  if (!/^https?:\/\//i.test(raw)) return MESSAGES.urlScheme;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MESSAGES.invalidUrl;
  }
  return url.hostname ? undefined : MESSAGES.invalidUrl;
}

/** What a model can do (the core's ModelCapabilities). */
export type Capabilities = ModelCapabilities;

export const DEFAULT_CAPABILITIES: Capabilities = { vision: false, tools: true, image: false, reasoning: false, context_window: null };

/** What one `:model set` changes: a column of the models table, or one capability. */
export type ModelChange =
  | { ok: true; column: 'provider' | 'model' | 'base_url' | 'api_key'; value: string }
  | { ok: true; column: 'price_input' | 'price_output'; value: number }
  | { ok: true; capability: 'vision' | 'tools' | 'image' | 'reasoning'; value: boolean }
  | { ok: true; capability: 'context_window'; value: number | null }
  /** Shared: the model belongs to the user's own group (its members use it); else to the user. */
  | { ok: true; shared: boolean }
  | { ok: false; error: Message };

export function isModelSettingKey(key: string): key is ModelSettingKey {
  return (MODEL_SETTING_KEYS as readonly string[]).includes(key);
}

/** Checks one `:model set` key and value; errors are the messages the user sees. */
export function checkModelSetting(key: string, raw: string): ModelChange {
  const k = key.toLowerCase();
  if (!isModelSettingKey(k)) return { ok: false, error: MESSAGES.unknownKey };
  const value = k === 'api_key' ? raw : raw.trim();
  switch (k) {
    case 'provider':
      return (MODEL_PROVIDERS as readonly string[]).includes(value.toLowerCase())
        ? { ok: true, column: 'provider', value: value.toLowerCase() }
        : { ok: false, error: MESSAGES.invalidProvider };
    case 'model':
      return MODEL_ID.test(value) ? { ok: true, column: 'model', value } : { ok: false, error: MESSAGES.invalidModelId };
    case 'base_url': {
      const problem = checkBaseUrlSyntax(value);
      return problem ? { ok: false, error: problem } : { ok: true, column: 'base_url', value: value.replace(/\/+$/, '') };
    }
    case 'api_key':
      return value.length > API_KEY_MAX ? { ok: false, error: MESSAGES.keyTooLong } : { ok: true, column: 'api_key', value };
    case 'price_input':
    case 'price_output': {
      if (!/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(value)) return { ok: false, error: MESSAGES.notNumber };
      const n = Number(value);
      if (!Number.isFinite(n)) return { ok: false, error: MESSAGES.notNumber };
      if (n < 0) return { ok: false, error: MESSAGES.negative };
      return { ok: true, column: k, value: n };
    }
    case 'vision':
    case 'tools':
    case 'image':
    case 'reasoning': {
      const lower = value.toLowerCase();
      if (lower !== 'true' && lower !== 'false') return { ok: false, error: MESSAGES.notBoolean };
      return { ok: true, capability: k, value: lower === 'true' };
    }
    case 'shared': {
      const lower = value.toLowerCase();
      if (lower !== 'true' && lower !== 'false') return { ok: false, error: MESSAGES.notBoolean };
      return { ok: true, shared: lower === 'true' };
    }
    case 'context_window': {
      if (value === '' || value.toLowerCase() === 'null') return { ok: true, capability: 'context_window', value: null };
      if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) return { ok: false, error: MESSAGES.notWindow };
      return { ok: true, capability: 'context_window', value: Number(value) };
    }
  }
}
