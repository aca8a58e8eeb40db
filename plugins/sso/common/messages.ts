// What single sign-on says: each failure says what went wrong and what to do next (issue 38),
// in the person's language by its code (locales/<lang>/sso.json).
import { defineMessages } from '../../../src/core/messages.ts';

export const MESSAGES = defineMessages('sso', {
  loggedIn: 'Logged in as {{name}} through {{provider}}.',
  linked: 'Your account is now linked to {{provider}} ({{email}}).',
  noProviders: 'No identity provider is configured on this server. The operator sets OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
  whichProvider: 'Several identity providers are configured ({{names}}): name one, as in :login sso {{first}}.',
  unknownProvider: 'There is no identity provider named {{name}}. Configured: {{names}}.',
  providerDown: 'The identity provider {{provider}} does not answer. Try again later; the server log says why.',
  providerError: 'The identity provider {{provider}} refused the sign-on ({{error}}). Try again; if it keeps happening, tell the operator, whose log has the details.',
  redirectRefused: 'The identity provider {{provider}} refused the return address {{uri}}. The operator registers it as a redirect URI of the client at the provider.',
  flowUnknown: 'This sign-on is unknown, expired or already used. Start again with :login sso.',
  otherBrowser: 'This sign-on was started in another browser. Start again here with :login sso.',
  clockSkew: "The sign-on token is not valid at this server's time: the clocks of this server and of the identity provider differ, or the sign-on took too long. Try again; if it keeps happening, the operator checks the clocks (OIDC_CLOCK_TOLERANCE).",
  tokenInvalid: 'The sign-on token could not be trusted ({{why}}). Nothing was logged in. Try again; if it keeps happening, tell the operator.',
  emailUnverified: 'The identity provider has not verified the e-mail address {{email}}, so this identity is not linked to the account that has it. Log in to that account and run :user sso link, or verify the address at the provider.',
  signUpClosed: 'No account here is linked to this identity, and sign-up through the identity provider is closed. Ask the operator for an account, then link it with :user sso link.',
  noEmail: 'The identity provider gave no e-mail address. The operator adds the email scope (OIDC_SCOPES).',
  linkedElsewhere: 'This identity is already linked to another account here.',
  localLoginOff: 'Logging in with a password is off for this account: use :login sso.',
  localSignUpOff: 'Signing up with a password is off on this server: use :login sso.',
  noOutcome: 'No sign-on came back to this browser.',
  rootOnly: 'Only root can see the claims of sign-ons.',
  noIdentity: 'No identity provider is linked to your account.',
  going: 'Going to {{provider}} to sign on...',
  noLogins: 'No sign-on yet.',
});
