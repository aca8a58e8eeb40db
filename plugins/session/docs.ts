// Documentation contributions of the session plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
    api: [
      { method: 'GET', path: '/api/session/{id}', key: 'docs.api.session' },
      { method: 'GET', path: '/api/session/list', key: 'docs.api.list' },
      { method: 'GET', path: '/api/session/list/{user}', key: 'docs.api.listUser' },
      { method: 'GET', path: '/api/session/{prev|next}?session=', key: 'docs.api.adjacent' },
      { method: 'POST', path: '/api/session/share', key: 'docs.api.share' },
      { method: 'GET', path: '/api/log/{prev|next}?session=&time=', key: 'docs.api.logAdjacent' },
      { method: 'GET', path: '/api/log/list?session=', key: 'docs.api.logList' },
      { method: 'GET', path: '/api/log/search?text=', key: 'docs.api.search' },
      { method: 'GET|POST', path: '/api/generate_sse', key: 'docs.api.generateSse' },
      { method: 'POST', path: '/api/generate', key: 'docs.api.generate' },
      { method: 'POST', path: '/api/generate_msg', key: 'docs.api.generateMsg' },
      { method: 'POST', path: '/api/log/add', key: 'docs.api.logAdd' },
      { method: 'GET', path: '/api/file/generate-presigned-url?fileId=&fileName=&contentType=', key: 'docs.api.presign' },
      { method: 'PUT', path: '/api/file/upload?id=&expires=&signature=', key: 'docs.api.upload' },
      { method: 'GET', path: '/api/file/{id}/{name}', key: 'docs.api.file' },
    ],
  };

export default docs;
