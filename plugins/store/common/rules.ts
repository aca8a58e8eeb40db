// The rules of data stores, shared by the server (which decides) and the commands (which report
// a mistake before a round trip): names, the settings keys of each engine, what the API shows.
import type { Message } from '../../../src/core/messages.ts';
import { fileExtension } from '../../../src/core/uploads.ts';
import { STORE_ENGINES, STORE_SETTING_KEYS, type StoreEngine } from './limits.ts';
import { MESSAGES } from './messages.ts';

export function checkStoreName(name: string): Message | undefined {
  return /^[A-Za-z0-9_.-]{1,32}$/.test(name) ? undefined : MESSAGES.invalidName;
}

export function checkEngine(engine: string): engine is StoreEngine {
  return (STORE_ENGINES as readonly string[]).includes(engine);
}

/** A settings change, checked per engine: the key must be one of the engine's, a port a number. */
export function checkStoreSetting(
  engine: StoreEngine,
  key: string,
  value: string,
): { ok: true; key: string; value: string } | { ok: false; error: string | Message } {
  const k = key.toLowerCase();
  if (!STORE_SETTING_KEYS[engine].includes(k)) return { ok: false, error: MESSAGES.unknownKey(STORE_SETTING_KEYS[engine].join(', ')) };
  if (k === 'port' && !/^\d{1,5}$/.test(value)) return { ok: false, error: MESSAGES.notNumber };
  if (k === 'port' && (Number(value) < 1 || Number(value) > 65535)) return { ok: false, error: 'Invalid value. A port is 1 to 65535.' };
  if (value.length > 2048) return { ok: false, error: 'Invalid value. At most 2048 characters.' };
  return { ok: true, key: k, value };
}

/** The extension of a file name or URL path, lower case ('' when none): the core's, as for chat uploads. */
export const extensionOf = fileExtension;

/** The active stores from the `stores` setting (a comma list). */
export const activeList = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** A store as the API shows it: never a password (only masked). */
export interface PublicStore {
  name: string;
  engine: StoreEngine;
  owner: string;
  scope: 'user' | 'group' | 'system';
  settings: Record<string, string>;
  files?: { name: string; chunks: number; bytes: number }[];
  initialized?: boolean;
}

/** The stores a user may use, by scope (GET /api/store/list). */
export interface StoreLists {
  user_stores: StoreListing[];
  group_stores: StoreListing[];
  system_stores: StoreListing[];
}
export interface StoreListing {
  name: string;
  engine: string;
  owner: string;
}

/** What an upload stored (POST /api/store/file-upload). */
export interface UploadResult {
  files: { name: string; chunks: number }[];
  /** The files the server did not store, each with why (the others were stored). */
  refused?: { name: string; reason: string }[];
}

/** What a search found, and the stores that could not be searched (POST /api/store/search). */
export interface StoreSearchResult {
  hits: StoreHit[];
  errors: string[];
}

export interface StoreHit {
  store: string;
  /** The file name (file stores) or 'query' (mysql stores). */
  source: string;
  snippet: string;
  score?: number;
}
