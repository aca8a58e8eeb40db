// Documentation contributions of the store plugin (loaded with the Documentation page).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  api: [
    { method: 'GET', path: '/api/store/list', key: 'docs.api.list' },
    { method: 'GET', path: '/api/store/{name}', key: 'docs.api.get' },
    { method: 'POST', path: '/api/store/add', key: 'docs.api.add' },
    { method: 'POST', path: '/api/store/init', key: 'docs.api.init' },
    { method: 'POST', path: '/api/store/file-upload', key: 'docs.api.upload' },
    { method: 'POST', path: '/api/store/data-reset', key: 'docs.api.dataReset' },
    { method: 'POST', path: '/api/store/delete', key: 'docs.api.delete' },
    { method: 'POST', path: '/api/store/search', key: 'docs.api.search' },
    { method: 'POST', path: '/api/store/update/{name}/owner', key: 'docs.api.owner' },
    { method: 'POST', path: '/api/store/update/{name}/settings', key: 'docs.api.settings' },
  ],
};

export default docs;
