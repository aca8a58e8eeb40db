// Handlers of the user commands, on top of the API client, one module per command or kin
// commands in commands/. They run in the browser, the CLI and the tests; the server decides
// everything (see ../server/index.ts).
import { GROUP_PASSWORD_KEY, keptSettings, type PluginContext } from '../../../src/core/index.ts';
import { addUser, deleteUser, showUser } from './commands/account.ts';
import { inviteByEmail, joinGroup, leaveGroup, resetPassword, setEmail, setPassword } from './commands/answered.ts';
import { logIn, logOut } from './commands/login.ts';
import { resetUserSetting, resetUserSettings, setEmailSubscription, setUserSetting } from './commands/settings.ts';
import { userAccess } from './commands/shared.ts';

export { userTable } from './commands/account.ts';

export async function activateUser(ctx: PluginContext): Promise<void> {
  const account = userAccess(ctx);
  const { sync } = account;
  ctx.onDispose(sync.dispose);
  const checked = sync.checkAtStart();

  ctx.completion('userSettingKey', () => [...keptSettings(ctx.settings.specs()).map((s) => s.key), GROUP_PASSWORD_KEY]);

  ctx.handle('login', logIn(account));
  ctx.handle('logout', logOut(account));
  ctx.handle('user', showUser(account));
  ctx.handle('user.add', addUser(account));
  ctx.setter('emailSubscription', setEmailSubscription(account));
  ctx.handle('user.set.pass', setPassword(account));
  ctx.handle('user.set.email', setEmail(account));
  ctx.handle('user.set', setUserSetting(account));
  ctx.handle('user.reset', resetUserSetting(account));
  ctx.handle('user.reset.settings', resetUserSettings(account));
  ctx.handle('user.reset.pass', resetPassword(account));
  ctx.handle('user.del', deleteUser(account));
  ctx.handle('user.join', joinGroup(account));
  ctx.handle('invite', inviteByEmail(account));
  ctx.handle('user.leave', leaveGroup(account));
  // A terminal run's first command waits for the account's settings (its language): run before
  // them, it said the profile's stale ones, and their late answer undid a choice just made. The
  // page does not wait: it paints first.
  if (ctx.env === 'cli') await checked;
}
