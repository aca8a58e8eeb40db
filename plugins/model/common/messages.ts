// What the model plugin says (spec part 8), shared by its rules, its server and its commands so
// that each shows a message in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';
import { API_KEY_MAX, BASE_URL_MAX, MAX_USER_MODELS, MODEL_ID_MAX, MODEL_NAME_MAX, MODEL_PROVIDERS, MODEL_SETTING_KEYS } from './limits.ts';

export const MESSAGES = defineMessages(
  'model',
  {
    noneSet: 'No model is set...',
    noneAvailable: 'No available model found.',
    invalidName: 'Invalid model name. A model name is 1 to {{nameMax}} letters, digits and . _ : / @ + - characters, starting with a letter or digit.',
    invalidProvider: 'Invalid provider. Valid providers are: {{providers}}.',
    invalidModelId: 'Invalid model id. A model id is 1 to {{idMax}} characters without spaces.',
    invalidUrl: 'The URL is not valid.',
    urlScheme: 'URL must start with http or https.',
    urlTooLong: 'The URL is too long (at most {{urlMax}} characters).',
    keyTooLong: 'The API key is too long (at most {{keyMax}} characters).',
    unknownKey: 'Unknown key. Key must be one of: {{keys}}',
    notNumber: 'Invalid value. Value must be a number.',
    negative: 'Invalid value. A price cannot be negative.',
    notBoolean: 'Invalid value. Value must be true or false.',
    notWindow: 'Invalid value. The context window is a whole number of tokens above 0, or "" to clear it.',
    notFound: 'Model not found.',
    tooMany: 'You can have at most {{modelsMax}} models. Please delete one first.',
    exists: 'Model "{{name}}" already exists.',
    added: 'Model "{{name}}" added.',
    updated: 'Model "{{name}}" updated.',
    deleted: 'Model "{{name}}" deleted.',
    shared: 'Model "{{name}}" is shared with your group: its members can use it, but never see its key.',
    unshared: 'Model "{{name}}" is yours alone again.',
    noGroup: 'You have no group of your own to share with.',
  },
  {
    nameMax: MODEL_NAME_MAX,
    providers: MODEL_PROVIDERS.join(', '),
    idMax: MODEL_ID_MAX,
    urlMax: BASE_URL_MAX,
    keyMax: API_KEY_MAX,
    keys: MODEL_SETTING_KEYS.join(', '),
    modelsMax: MAX_USER_MODELS,
  },
);
