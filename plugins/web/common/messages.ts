// What the web routes, tools and commands answer in words (English; a person sees them in the
// interface's language through their codes, src/core/messages.ts). The model reads the tools'
// failures as tool results.
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('web', {
  notConfigured: 'Web search is not configured on this server (set SEARXNG_URL or BRAVE_SEARCH_API_KEY).',
  backendFailed: 'The search service did not answer ({{detail}}).',
  emptyQuery: 'Say what to search for: :web "rust async traits".',
  noResults: 'No results for "{{query}}".',
  badUrl: 'URL must start with http or https.',
  notFetched: 'The page could not be read: {{detail}}',
  // Why, as notFetched's detail (fetch itself says only 'fetch failed').
  tookTooLong: 'it took too long.',
  portRefused: 'the port is not allowed (browsers refuse it too).',
  connectionRefused: 'the host refused the connection.',
  extractSlow: 'its text took too long to extract.',
  extractMemory: 'its text took too much memory to extract.',
  extractCrashed: 'its text could not be extracted.',
  extractBusy: 'the server is reading too many pages; try again shortly.',
  unexpected: 'something unexpected went wrong.',
  status: 'The page answered {{status}}.',
  badType: 'The page is {{type}}: only HTML, plain text and PDF pages are read.',
  noText: 'The page has no readable text.',
  limit: 'Web search and page reads limit reached: {{used}} of {{limit}} this {{window}}.',
  turnLimit: 'At most {{max}} web searches and page reads per question.',
  searching: 'Searching the web...',
  reading: 'Reading {{url}}...',
});
