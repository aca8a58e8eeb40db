// Documentation contributions of the web plugin: its system functions in the functions table.
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  functions: [
    { name: 'web_search', params: 'query', key: 'docs.functions.web_search' },
    { name: 'web_fetch', params: 'url', key: 'docs.functions.web_fetch' },
  ],
};

export default docs;
