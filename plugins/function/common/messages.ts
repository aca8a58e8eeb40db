// What the function API and the built-in functions answer in words. The model reads them as
// tool results in English; a person running `!name({...})` sees them in the interface's
// language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('function', {
  invalid: 'Function invalid.',
  notFound: 'Function not found.',
  failed: 'The function failed.',
  badArgs: 'Invalid arguments for {{name}}: {{detail}}',
  argsNotJson: 'The arguments are not valid JSON ({{detail}}).',
  argsNotObject: 'The arguments must be a JSON object, e.g. { "timezone": "UTC" }.',
  argRequired: 'The argument "{{name}}" is required.',
  argNotString: 'The argument "{{name}}" must be a string.',
  argTooLong: 'The argument "{{name}}" is too long.',
  unreachable: 'The {{service}} service could not be reached.',
  serviceStatus: 'The {{service}} service answered {{status}}.',
  unreadable: 'The {{service}} service sent an unreadable answer.',
  urlScheme: 'URL must start with http or https.',
  locationNotFound: 'Location "{{location}}" not found.',
  wolframOff: 'Wolfram|Alpha is not configured on this server (WOLFRAM_APP_ID is not set).',
  wolframError: 'Wolfram|Alpha: {{detail}}.',
  wolframNoAnswer: 'Wolfram|Alpha has no answer for "{{query}}".',
  unknownZone: 'Unknown time zone "{{zone}}".',
});
