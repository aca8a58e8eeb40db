// The user API of spec part 7: accounts, login sessions, settings, groups, e-mail links, one
// module per topic in routes/. Every decision about who may act on whom goes through ctx.policy.
import { Hono } from 'hono';
import type { AppEnv, ServerPluginContext, ServerPluginModule } from '../../../src/core/index.ts';
import { forgetInvitations, invitationsMigration } from './invitations.ts';
import { deleteUserRoutes } from './routes/deleteUser.ts';
import { userRouteDeps } from './routes/deps.ts';
import { emailRoutes } from './routes/email.ts';
import { emailSubscriptionRoutes } from './routes/emailSubscription.ts';
import { groupsRoutes } from './routes/groups.ts';
import { infoRoutes } from './routes/info.ts';
import { inviteRoutes } from './routes/invite.ts';
import { loginRoutes } from './routes/login.ts';
import { passwordRoutes } from './routes/password.ts';
import { passwordResetRoutes } from './routes/passwordReset.ts';
import { settingsRoutes } from './routes/settings.ts';
import { signUpRoutes } from './routes/signUp.ts';
import { standingRoutes } from './routes/standing.ts';
import { usageDeviceMigration } from './usage.ts';
import { registerUseLimit } from './useLimit.ts';

/** The user API's routes, in the order they were declared; the browser's client is typed from them (UserRoutes). */
export function userRoutes(ctx: ServerPluginContext) {
  const deps = userRouteDeps(ctx);
  return new Hono<AppEnv>()
    .route('/', infoRoutes(deps))
    .route('/', loginRoutes(deps))
    .route('/', signUpRoutes(deps))
    .route('/', deleteUserRoutes(deps))
    .route('/', settingsRoutes(deps))
    .route('/', passwordRoutes(deps))
    .route('/', emailRoutes(deps))
    .route('/', passwordResetRoutes(deps))
    .route('/', groupsRoutes(deps))
    .route('/', standingRoutes(deps))
    .route('/', inviteRoutes(deps))
    .route('/', emailSubscriptionRoutes(deps));
}

export type UserRoutes = ReturnType<typeof userRoutes>;

/** What goes with the routes: a deleted account's invitations, and the usage limits (counted when a question starts). */
function registerUser(ctx: ServerPluginContext): void {
  forgetInvitations(ctx);
  registerUseLimit(ctx);
}

const module: ServerPluginModule = {
  migrations: { '0001_invitations': invitationsMigration, '0002_usage_device': usageDeviceMigration },
  formerMigrationNames: { '0001_invitations': '0100_user_invitations', '0002_usage_device': '0500_user_usage_device' },
  routes: userRoutes,
  register: registerUser,
};
export default module;
