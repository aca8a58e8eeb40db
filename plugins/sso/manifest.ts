// Single sign-on (issue 38): `:login sso [provider]` goes to the team's identity provider and
// comes back logged in; `:user sso link` links the provider's identity to the account one is
// logged in to; root's `:sso test` shows the claims the last sign-ons produced.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'sso',
  version: '1.0.0',
  // The page the provider sends the browser back to says who logged in (or why not).
  activation: 'startup',
  commands: [
    { id: 'login.sso', words: ['login', 'sso'], group: 'user', needs: ['server'], args: [{ name: 'provider', optional: true }] },
    { id: 'user.sso.link', words: ['user', 'sso', 'link'], group: 'user', needs: ['server', 'login'], args: [{ name: 'provider', optional: true }] },
    { id: 'user.sso', words: ['user', 'sso'], group: 'user', needs: ['server', 'login'] },
    { id: 'sso.test', words: ['sso', 'test'], group: 'user', needs: ['server', 'login'] },
    { id: 'sso', words: ['sso'], group: 'user', needs: ['server'] },
  ],
});
