// What one import may cost, besides the operator's IMPORT_* variables (server/env.ts): the
// shapes a hostile archive could blow up, each refused with its own message.

/** Nesting of a JSON value: ChatGPT's and Claude's exports need under 10. */
export const JSON_DEPTH_MAX = 64;
/** One string (a message's text, a key) in characters. */
export const STRING_MAX_CHARS = 4 * 1024 * 1024;
/** One conversation's text, all its strings together, in characters. */
export const CONVERSATION_MAX_CHARS = 32 * 1024 * 1024;
/** Messages (ChatGPT's mapping nodes, Claude's chat messages, shellchat's logs) in one conversation. */
export const CONVERSATION_MAX_MESSAGES = 20_000;
/** Values (objects, arrays, strings, numbers...) in one conversation: a flood of tiny values is bounded too. */
export const CONVERSATION_MAX_VALUES = 2_000_000;
/** Conversations in one archive. */
export const CONVERSATIONS_MAX = 100_000;
/** Files in one zip, whatever their names. */
export const ZIP_MAX_ENTRIES = 100_000;
/** Image URLs kept per log. */
export const IMAGES_MAX = 32;
/** Conversation titles in the report, in characters. */
export const TITLE_MAX_CHARS = 120;
/** Rows of the import's report: past them conversations are counted, not listed. */
export const REPORT_ROWS_MAX = 20_000;
