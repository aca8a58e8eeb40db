// What the store plugin says (spec parts 5 and 8, quoted exactly), shared by its rules, its
// server and its commands so that each shows a message in the interface's language.
import { MAX_ACTIVE_STORES } from '../../../src/core/index.ts';
import { defineMessages } from '../../../src/core/messages.ts';
import { MAX_USER_STORES, STORE_ENGINES, STORE_NAME_MAX } from './limits.ts';

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
