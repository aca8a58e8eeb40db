// What the key plugin says, shared by its rules, its server and its commands so that each shows a
// message in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';
import { EXPIRES_MAX_DAYS, KEY_NAME_MAX, MAX_KEYS_PER_USER } from './limits.ts';

export const MESSAGES = defineMessages(
  'key',
  {
    invalidName: 'Invalid key name. A key name is 1 to {{nameMax}} letters, digits and . _ - characters.',
    invalidExpires: 'Invalid expiry. Write a number of days or hours, e.g. 30d or 12h, at most {{daysMax}} days.',
    unknownFlag: 'Unknown option {{flag}}. Options: --expires, --role, --store, --model, --no-log.',
    missingValue: 'Option {{flag}} needs a value.',
    exists: 'Key "{{name}}" already exists.',
    tooMany: 'You can have at most {{keysMax}} keys. Please remove one first.',
    notFound: 'Key not found.',
    modelNotFound: 'Model not found.',
    created: 'Key "{{name}}" created. Copy it now: it is shown only once.',
    removed: 'Key "{{name}}" revoked.',
    none: 'You have no API keys.',
    notWithKey: 'This cannot be done with an API key: log in with your password.',
    invalidKey: 'Invalid API key.',
    revoked: 'This API key was revoked.',
    expired: 'This API key has expired.',
    modelOutOfScope: 'This API key may only use the model {{model}}.',
  },
  { nameMax: KEY_NAME_MAX, daysMax: EXPIRES_MAX_DAYS, keysMax: MAX_KEYS_PER_USER },
);
