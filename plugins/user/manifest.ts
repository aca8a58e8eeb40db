// User: accounts, login and logout, settings kept on the server, groups (spec parts 2, 5, 6, 7).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'user',
  version: '1.0.0',
  // Keeps the local user in step with the server (sync of settings, checks at start-up).
  activation: 'startup',
  /** The Usage page (client/usagePage.ts), shown when the operator turns USE_PAYMENT on. */
  pages: ['usage'],
  helpGroups: [{ id: 'user', order: 90 }],
  commands: [
    {
      id: 'login',
      words: ['login'],
      group: 'user',
      needs: ['server'],
      args: [
        { name: 'username' },
        { name: 'password', secret: true },
        { name: 'options', optional: true, rest: true, display: '[--save|-s [Nh|Nd]]' },
      ],
    },
    { id: 'logout', words: ['logout'], group: 'user', needs: ['server'] },
    { id: 'user', words: ['user'], aliases: [['u'], ['user', 'info']], group: 'user', needs: ['server', 'login'] },
    {
      id: 'user.add',
      words: ['user', 'add'],
      group: 'user',
      needs: ['server'],
      args: [{ name: 'username' }, { name: 'email' }, { name: 'password', optional: true, secret: true }],
    },
    { id: 'user.set.pass', words: ['user', 'set', 'pass'], group: 'user', needs: ['server', 'login'], args: [{ name: 'password', secret: true }] },
    { id: 'user.set.email', words: ['user', 'set', 'email'], group: 'user', needs: ['server', 'login'], args: [{ name: 'email' }] },
    {
      id: 'user.set',
      words: ['user', 'set'],
      group: 'user',
      needs: ['server', 'login'],
      args: [{ name: 'key', complete: 'userSettingKey' }, { name: 'value', quoted: 'settingValue' }],
    },
    { id: 'user.reset.settings', words: ['user', 'reset', 'settings'], group: 'user', needs: ['server', 'login'] },
    { id: 'user.reset.pass', words: ['user', 'reset', 'pass'], group: 'user', needs: ['server'], args: [{ name: 'username' }, { name: 'email' }] },
    { id: 'user.reset', words: ['user', 'reset'], group: 'user', needs: ['server', 'login'], args: [{ name: 'key', complete: 'userSettingKey' }] },
    { id: 'user.del', words: ['user', 'del'], aliases: [['user', 'delete']], group: 'user', needs: ['server', 'login'], args: [{ name: 'username' }] },
    { id: 'user.join', words: ['user', 'join'], group: 'user', needs: ['server', 'login'], args: [{ name: 'group' }, { name: 'password', secret: true }] },
    { id: 'user.leave', words: ['user', 'leave'], group: 'user', needs: ['server', 'login'], args: [{ name: 'group' }] },
    { id: 'invite', words: ['invite'], group: 'user', needs: ['server', 'login'], args: [{ name: 'email' }] },
  ],
  settings: [
    // The account's e-mail subscription as the server has it (read at login), for the Settings
    // page's subscribe and unsubscribe buttons; picking one asks the server (ctx.setter).
    { key: 'emailSubscription', type: 'enum', values: ['on', 'off'], default: 'on', scope: 'device', settable: false, page: { order: 90, login: true } },
  ],
});
