// The general plugin's confirmations that must speak the language they set: carried as codes,
// the host shows them once the new language's translations are in (`:lang use ar-SA` right
// after `:lang use de-DE` answered in German).
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('general', {
  langSet: 'Language set to {{name}} ({{code}}).',
  langReset: 'Language reset.',
});
