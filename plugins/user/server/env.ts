// The user plugin's own variables (issue 35: a plugin declares its own; the server merges them
// into its schema and docs/configuration.md).
import { definePluginEnv, doc, number } from '../../../src/core/envVars.ts';

export default definePluginEnv(
  {
    INVITE_REWARD: doc(number(0, 0, 1000), '`0`', 'What an accepted invitation adds to the balance of both the inviter and the new user, in dollars'),
  },
  (e) => ({ inviteReward: e.INVITE_REWARD }),
);
