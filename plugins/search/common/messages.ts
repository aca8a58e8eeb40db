// What the log search API answers in words, shared so that the browser shows a server's message
// in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('search', {
  noLog: 'No log found.',
});
