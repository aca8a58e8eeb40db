// What the archive plugin says: the import's refusals (each names the limit it passed) and its
// report, and the export's answers. Shared by the server, the commands and the tests.
import { defineMessages } from '../../../src/core/messages.ts';
import { usageOfCommand } from '../../../src/core/registry.ts';
import manifest from '../manifest.ts';
import { CONVERSATION_MAX_MESSAGES, CONVERSATIONS_MAX, JSON_DEPTH_MAX, STRING_MAX_CHARS, ZIP_MAX_ENTRIES } from './limits.ts';

const mb = (chars: number) => Math.round(chars / (1024 * 1024));

export const MESSAGES = defineMessages(
  'archive',
  {
    // The archive as a whole.
    notArchive: 'This file is not a shellchat, ChatGPT or Claude export.',
    notJson: 'This file is not valid JSON: {{reason}}',
    tooLarge: 'The archive is larger than {{maxMb}} MB.',
    inflatedTooLarge: 'The archive unpacks to more than {{maxMb}} MB.',
    tooDeep: 'The archive nests deeper than {{depthMax}} levels.',
    stringTooLong: 'The archive holds a text longer than {{stringMb}} MB.',
    tooManyConversations: 'The archive holds more than {{conversationsMax}} conversations.',
    tooManyEntries: 'The zip holds more than {{entriesMax}} files.',
    busy: 'An import is already running; try again when it is done.',
    serverBusy: 'Too many imports are running on the server; try again in {{seconds}} seconds.',
    stopped: 'The import stopped: {{reason}}',
    tooSlow: 'The import took more than {{seconds}} seconds and stopped.',
    noConversations: 'The archive holds no conversations.',
    badZip: 'The zip is damaged: {{reason}}',
    // One conversation refused, the others go on.
    conversationTooLarge: 'The conversation is larger than the import allows.',
    tooManyMessages: 'The conversation has more than {{messagesMax}} messages.',
    wrongShape: 'The conversation is not in the expected shape: {{reason}}',
    empty: 'The conversation has no messages.',
    picturesLeftOut: 'Imported without {{count}} of its pictures: {{reason}}',
    // The report.
    summary: '{{imported}} imported, {{skipped}} already there, {{refused}} refused.',
    // Commands.
    pickFile: 'Choose a file to import (a .zip or a .json export).',
    noSelection: 'No file selected.',
    importing: 'Importing {{name}}: {{percent}}%',
    importedSoFar: 'Importing {{name}}: {{count}} conversations done',
    noFile: 'Usage: {{importUsage}} (a .zip or a .json export).',
    cannotRead: 'Cannot read {{path}}: {{reason}}',
    cannotWrite: 'Cannot write {{path}}: {{reason}}',
    exported: 'Exported to {{file}}.',
    nothingToExport: 'No session to export.',
  },
  {
    importUsage: usageOfCommand(manifest, 'session.import'),
    depthMax: JSON_DEPTH_MAX,
    stringMb: mb(STRING_MAX_CHARS),
    conversationsMax: CONVERSATIONS_MAX.toLocaleString('en-US'),
    messagesMax: CONVERSATION_MAX_MESSAGES.toLocaleString('en-US'),
    entriesMax: ZIP_MAX_ENTRIES.toLocaleString('en-US'),
  },
);
