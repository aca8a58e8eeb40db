// Documentation contributions of the info plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
    api: [
      { method: 'GET', path: '/api/system/info', key: 'docs.api.systemInfo' },
      { method: 'GET', path: '/api/ping', key: 'docs.api.ping' },
    ],
  };

export default docs;
