// Documentation contributions of the user plugin: loaded with the Documentation page, not
// with the first paint (the manifest keeps only what parsing and help need).
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
    api: [
      { method: 'GET', path: '/api/user/info', key: 'docs.api.info' },
      { method: 'POST', path: '/api/user/login', key: 'docs.api.login' },
      { method: 'POST', path: '/api/user/logout', key: 'docs.api.logout' },
      { method: 'POST', path: '/api/user/add', key: 'docs.api.add' },
      { method: 'POST', path: '/api/user/update/setting', key: 'docs.api.updateSetting' },
      { method: 'POST', path: '/api/user/update/password', key: 'docs.api.updatePassword' },
      { method: 'POST', path: '/api/user/update/email', key: 'docs.api.updateEmail' },
      { method: 'POST', path: '/api/user/reset-password', key: 'docs.api.resetPassword' },
      { method: 'POST', path: '/api/user/delete', key: 'docs.api.delete' },
      { method: 'POST', path: '/api/user/group/join', key: 'docs.api.groupJoin' },
      { method: 'POST', path: '/api/user/group/leave', key: 'docs.api.groupLeave' },
      { method: 'GET', path: '/api/invite/{email}', key: 'docs.api.invite' },
    ],
  };

export default docs;
