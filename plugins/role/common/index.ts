// Handlers of the role commands, on top of the API client, one module per command in commands/.
// The server decides who may see or change a role, and resolves a name user role first, then
// system role (see ../server/index.ts).
import type { PluginContext } from '../../../src/core/index.ts';
import { resetRole, setRole, useRole } from './commands/active.ts';
import { addRole, deleteRole, setRolePrompt } from './commands/own.ts';
import { roleAccess } from './commands/shared.ts';
import { listRoles, showActiveRole } from './commands/show.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

export function activateRole(ctx: PluginContext): void {
  const roles = roleAccess(ctx);

  ctx.completion('role', async () => {
    const { user_roles, system_roles } = await roles.lists();
    return [...new Set([...user_roles, ...system_roles].map((r) => r.name))];
  });
  ctx.completion('userRole', async () => (await roles.lists()).user_roles.map((r) => r.name));
  // The Settings page: one's own roles, then the system's.
  ctx.choices('role', async () => {
    const { user_roles, system_roles } = await roles.lists();
    return [
      { title: ctx.t('list.user'), values: user_roles.map((r) => r.name) },
      { title: ctx.t('list.system'), values: system_roles.map((r) => r.name) },
    ];
  });

  ctx.handle('role', showActiveRole(roles));
  ctx.handle('role.ls', listRoles(roles));
  ctx.handle('role.use', useRole(roles));
  ctx.setter('role', setRole(roles));
  ctx.handle('role.reset', resetRole);
  ctx.handle('role.add', addRole(roles));
  ctx.handle('role.set', setRolePrompt(roles));
  ctx.handle('role.del', deleteRole(roles));
}
