// The rules of nodes, shared by the server (which decides) and the commands (which report a
// mistake before a round trip): names (spec part 5), setting keys and their values.
import type { Message } from '../../../src/core/messages.ts';
import { BASE_URL_MAX, DEFAULT_TIMEOUT_MS, NODE_KINDS, NODE_NAME_MAX, NODE_SETTING_KEYS, TIMEOUT_MAX, TIMEOUT_MIN, VALUE_MAX, type NodeKind, type NodeSettingKey } from './limits.ts';
import { MESSAGES } from './messages.ts';

/** Settings as stored (the key sealed) and as shown (the key masked, or absent). */
export interface NodeSettings {
  kind: NodeKind;
  base_url: string;
  api_key: string;
  model: string;
  prompt_template: string;
  timeout_ms: number;
  description: string;
}

export const DEFAULT_NODE_SETTINGS: NodeSettings = {
  kind: 'http',
  base_url: '',
  api_key: '',
  model: '',
  prompt_template: '',
  timeout_ms: DEFAULT_TIMEOUT_MS,
  description: '',
};

export type NodeScope = 'user' | 'group' | 'system';

/** A node as the API shows it. `settings.base_url` and the masked `settings.api_key` only to those who manage it. */
export interface PublicNode {
  name: string;
  owner: NodeScope;
  /** The owning user's or group's name; 'system' for system nodes. */
  owner_name: string;
  settings: Omit<NodeSettings, 'api_key' | 'base_url'> & { api_key?: string; base_url?: string };
  /** Whether the caller may change or delete it. */
  manageable: boolean;
}

export interface NodeLists {
  user_nodes: PublicNode[];
  group_nodes: PublicNode[];
  system_nodes: PublicNode[];
}

/** What a node answered: text and/or image URLs. */
export interface NodeOutput {
  node: string;
  text: string;
  images: string[];
}

const NAME = new RegExp(`^[A-Za-z0-9_-]{1,${NODE_NAME_MAX}}$`);

export function checkNodeName(name: string): Message | undefined {
  return NAME.test(name) ? undefined : MESSAGES.invalidName;
}

export function isNodeSettingKey(key: string): key is NodeSettingKey {
  return (NODE_SETTING_KEYS as readonly string[]).includes(key);
}

export type NodeChange = { ok: true; key: NodeSettingKey; value: string | number } | { ok: false; error: Message };

/** The syntax of a base URL; the server also checks where it points (egress policy). */
export function checkBaseUrlSyntax(raw: string): Message | undefined {
  if (raw.length > BASE_URL_MAX) return MESSAGES.urlTooLong;
  if (!/^https?:\/\//i.test(raw)) return MESSAGES.urlScheme;
  try {
    return new URL(raw).hostname ? undefined : MESSAGES.invalidUrl;
  } catch {
    return MESSAGES.invalidUrl;
  }
}

/** Checks one `:node set` key and value; errors are the messages the user sees. */
export function checkNodeSetting(key: string, raw: string): NodeChange {
  const k = key.toLowerCase();
  if (!isNodeSettingKey(k)) return { ok: false, error: MESSAGES.unknownKey };
  if (raw.length > VALUE_MAX) return { ok: false, error: MESSAGES.valueTooLong };
  const value = k === 'api_key' || k === 'prompt_template' ? raw : raw.trim();
  switch (k) {
    case 'kind':
      return (NODE_KINDS as readonly string[]).includes(value.toLowerCase()) ? { ok: true, key: k, value: value.toLowerCase() } : { ok: false, error: MESSAGES.invalidKind };
    case 'base_url': {
      if (value === '') return { ok: true, key: k, value: '' };
      const problem = checkBaseUrlSyntax(value);
      return problem ? { ok: false, error: problem } : { ok: true, key: k, value: value.replace(/\/+$/, '') };
    }
    case 'timeout_ms': {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < TIMEOUT_MIN || n > TIMEOUT_MAX) return { ok: false, error: MESSAGES.invalidTimeout };
      return { ok: true, key: k, value: n };
    }
    default:
      return { ok: true, key: k, value };
  }
}
