// Roles (spec parts 3, 4, 6, 7): named system prompts. The active role's prompt reaches the
// model as a system message; users keep their own roles, which win over system roles of the
// same name. Using or resetting a role resets memory (a new session).
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'role',
  version: '1.0.0',
  helpGroups: [{ id: 'roles', order: 60 }],
  commands: [
    { id: 'role', words: ['role'], group: 'roles', args: [{ name: 'name', quoted: 'roleName', optional: true, complete: 'role' }] },
    { id: 'role.ls', words: ['role', 'ls'], aliases: [['role', 'list']], group: 'roles' },
    { id: 'role.use', words: ['role', 'use'], group: 'roles', args: [{ name: 'name', quoted: 'roleName', complete: 'role' }] },
    { id: 'role.reset', words: ['role', 'reset'], group: 'roles' },
    {
      id: 'role.add',
      words: ['role', 'add'],
      group: 'roles',
      needs: ['server', 'login'],
      args: [
        { name: 'name', quoted: 'roleName' },
        { name: 'prompt', quoted: 'prompt' },
      ],
    },
    {
      id: 'role.set',
      words: ['role', 'set'],
      group: 'roles',
      needs: ['server', 'login'],
      args: [
        { name: 'name', quoted: 'roleName', complete: 'userRole' },
        { name: 'prompt', quoted: 'prompt' },
      ],
    },
    {
      id: 'role.del',
      words: ['role', 'del'],
      aliases: [['role', 'delete']],
      group: 'roles',
      needs: ['server', 'login'],
      args: [{ name: 'name', quoted: 'roleName', complete: 'userRole' }],
    },
  ],
  settings: [
    {
      key: 'role',
      type: 'string',
      default: '',
      scope: 'tab',
      sync: true,
      turn: true,
      info: true,
      // Picking a role on the Settings page is `:role use` (ctx.setter), so memory resets as it should.
      page: { order: 30 },
    },
  ],
});
