// The engines, keys and limits of data stores: what the rules check and the messages state.
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../../src/core/constants.ts';

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
