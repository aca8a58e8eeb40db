// Documentation contributions of the function plugin: the functions table (spec part 9),
// loaded with the Documentation page (the API table is generated from the routes).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  functions: [
    { name: 'get_time', params: 'timezone', key: 'docs.functions.get_time' },
    { name: 'get_weather', params: 'location', key: 'docs.functions.get_weather' },
    { name: 'ask_wolframalpha', params: 'query, keyword', key: 'docs.functions.ask_wolframalpha' },
    { name: 'redirect_to_url', params: 'url, blank', key: 'docs.functions.redirect_to_url' },
  ],
};

export default docs;
