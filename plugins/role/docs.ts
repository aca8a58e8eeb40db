// Documentation contributions of the role plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  api: [
    { method: 'GET', path: '/api/role/list', key: 'docs.api.list' },
    { method: 'GET', path: '/api/role/{name}', key: 'docs.api.get' },
    { method: 'POST', path: '/api/role/add', key: 'docs.api.add' },
    { method: 'POST', path: '/api/role/update', key: 'docs.api.update' },
    { method: 'POST', path: '/api/role/delete', key: 'docs.api.delete' },
  ],
};

export default docs;
