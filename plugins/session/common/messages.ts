// What the session API answers in words (spec part 8), shared so that the browser shows a
// server's message in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('session', {
  notFound: 'No session found.',
  noLog: 'No log found.',
  noPrevious: 'No previous session.',
  noNext: 'No next session.',
  notNumber: 'Session must be a number.',
  timeTraveler: 'Time traveler detected.',
  shareOwnOnly: 'You can only share your own sessions.',
  listRoot: 'Only root lists the sessions of all users.',
  listOwn: 'You can only list your own sessions.',
  userNotFound: 'User not found.',
  shared: 'Session shared.',
});
