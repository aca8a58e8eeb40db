// The rules of data stores, shared by the server (which decides) and the commands (which report
// a mistake before a round trip): engines, names, the settings keys of each engine, and the
// messages of spec parts 5 and 8 (quoted exactly).
import { MAX_ACTIVE_STORES } from '../../../src/core/index.ts';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../../src/core/constants.ts';
import { defineMessages, type Message } from '../../../src/core/messages.ts';
import { fileExtension } from '../../../src/core/uploads.ts';

export const STORE_ENGINES = ['file', 'mysql'] as const;
export type StoreEngine = (typeof STORE_ENGINES)[number];

/** Settings keys per engine (`:store set <key> "<value>"`); `owner` has its own command. */
export const STORE_SETTING_KEYS: Record<StoreEngine, readonly string[]> = {
  file: ['description'],
  mysql: ['host', 'port', 'user', 'password', 'database', 'table', 'description', 'model'],
};

export const STORE_NAME_MAX = 32;
/** How many stores one user may own (the original's limit). */
export const MAX_USER_STORES = 10;
// The spec's one upload rule (10 MB, its nine types), for stores as for chat uploads.
export const MAX_UPLOAD_BYTES = UPLOAD_MAX_BYTES;
export { UPLOAD_EXTENSIONS };
/** What a file store indexes (images are accepted by the upload rule but carry no text). */
export const TEXT_EXTENSIONS = ['pdf', 'docx', 'txt', 'md', 'csv', 'json'] as const;

export const MESSAGES = defineMessages(
  'store',
  {
    alreadyActive: 'Store `{{name}}` is already active.',
    tooManyActive: 'You can only use {{activeMax}} stores at the same time. Please unuse one of them first.',
    invalidEngine: 'Invalid engine. Valid engines are: {{engines}}.',
    multiple: 'Multiple stores are being used. Please unuse all but one store.',
    noStore: 'No data store is set...',
    notFound: 'Store not found.',
    notExists: 'Store not exists.',
    noAvailable: 'No available store found.',
    noSelected: 'No store selected.',
    invalidName: 'Invalid store name. A store name is 1 to {{nameMax}} letters, digits and _ . - characters.',
    invalidType: 'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.',
    tooLarge: 'failed: file size exceeds 10MB',
    tooMany: 'You can own at most {{storesMax}} stores.',
    exists: 'Store `{{name}}` already exists.',
    unknownKey: 'Unknown key. Key must be one of: {{keys}}',
    notNumber: 'Invalid value. Value must be a number.',
    notFileStore: 'This command is for file stores.',
    notMysqlStore: 'This command is for mysql stores.',
    notOwner: 'Only the owner of a store may change it.',
    noFiles: 'No file is attached. Attach files with +file[url].',
    noSelection: 'No file is selected.',
    notInitialized: 'The store is not initialized: set host, user, password and database, then run :store init.',
    urlScheme: 'URL must start with http or https.',
    invalidRequest: 'Invalid request.',
    uploadCancelled: 'Upload cancelled.',
    uploadFailed: 'Upload failed: {{file}}: {{detail}}',
    initFailed: 'Initialization failed: {{detail}}',
    created: 'Store `{{name}}` is created.',
    ready: 'Store `{{name}}` is ready.',
    initialized: 'Store `{{name}}` is initialized.',
    initializedWarning: 'Store `{{name}}` is initialized. Warning: the account has {{privileges}} privileges; use an account with SELECT only.',
    uploaded: '{{count}} file(s) uploaded to store `{{name}}`.',
    dataReset: 'Store `{{name}}` data is reset.',
    deleted: 'Store `{{name}}` is deleted.',
    ownerSet: 'Store `{{name}}` owner is set to {{owner}}.',
    keySet: 'Store `{{name}}` {{key}} is set.',
  },
  { activeMax: MAX_ACTIVE_STORES, engines: STORE_ENGINES.join(', '), nameMax: STORE_NAME_MAX, storesMax: MAX_USER_STORES },
);

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
