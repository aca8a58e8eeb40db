// Documentation contributions of the node plugin: loaded with the Documentation page.
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  api: [
    { method: 'GET', path: '/api/node/list', key: 'docs.api.list' },
    { method: 'GET', path: '/api/node/{name}', key: 'docs.api.get' },
    { method: 'POST', path: '/api/node/add', key: 'docs.api.add' },
    { method: 'POST', path: '/api/node/delete', key: 'docs.api.delete' },
    { method: 'POST', path: '/api/node/generate', key: 'docs.api.generate' },
    { method: 'POST', path: '/api/node/update/{name}/owner', key: 'docs.api.owner' },
    { method: 'POST', path: '/api/node/update/{name}/settings', key: 'docs.api.settings' },
  ],
};

export default docs;
