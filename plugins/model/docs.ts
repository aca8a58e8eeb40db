// Documentation contributions of the model plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
    api: [
      { method: 'GET', path: '/api/model/list', key: 'docs.api.list' },
      { method: 'GET', path: '/api/model/{name}', key: 'docs.api.get' },
      { method: 'POST', path: '/api/model/add', key: 'docs.api.add' },
      { method: 'POST', path: '/api/model/update', key: 'docs.api.update' },
      { method: 'POST', path: '/api/model/delete', key: 'docs.api.delete' },
    ],
  };

export default docs;
