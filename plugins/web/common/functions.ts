// The system functions of the web plugin (its manifest declares them, so that `:function use
// web_search` finds them; the server runs them): names, descriptions and JSON schemas.
import type { ToolSpec } from '../../../src/core/index.ts';

export const WEB_FUNCTIONS: readonly ToolSpec[] = [
  {
    name: 'web_search',
    description: 'Search the web. Answers numbered results (title, site, URL, snippet); read a page with web_fetch and cite sources as numbered links.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for, as words a search engine understands.' } },
      required: ['query'],
    },
  },
  {
    name: 'web_fetch',
    description: 'Read a web page (HTML, plain text or PDF) and get its readable text, to answer from it and cite it.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http(s) URL of the page, e.g. one from web_search.' } },
      required: ['url'],
    },
  },
];
