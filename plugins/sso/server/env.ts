// The sso plugin's variables: one identity provider through OIDC_ISSUER / OIDC_CLIENT_ID /
// OIDC_CLIENT_SECRET, several through OIDC_PROVIDERS (JSON), the group rules, and who may still
// use a password. A wrong value stops the start with one line that says which and why.
import { z } from 'zod';
import { definePluginEnv, doc, list, number, text } from '../../../src/core/envVars.ts';

/** A rule: members of the provider's group `claim` get a shellchat role, or join a shellchat group. */
export type GroupRule = { claim: string; role: 'user' | 'plus_user' | 'super_user' } | { claim: string; group: string };

export interface Provider {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  groupsClaim: string;
  rules: GroupRule[];
}

export interface SsoConfig {
  providers: Provider[];
  /** Whether a first login with no matching account creates one. */
  signUp: boolean;
  /** Whether `:user add` still signs people up (root adding an account always works). */
  localSignUp: boolean;
  /** Who may log in with a password: everyone, or these usernames (root always may). */
  localLogin: 'everyone' | string[];
  clockToleranceSeconds: number;
}

/** A flag that is on when unset. */
const flagOn = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const v = (value ?? '').trim().toLowerCase();
    if (['', '1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `must be true or false, got ${value}` });
    return z.NEVER;
  });

const ROLES = ['user', 'plus_user', 'super_user'] as const;
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** `admins=role:super_user,eng=group:engineering` → rules; throws naming the bad item. */
export function parseRules(value: string, where: string): GroupRule[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^([^=]+)=(role|group):(.+)$/.exec(item);
      if (!match) throw new Error(`${where}: the rule "${item}" is not <provider group>=role:<role> or <provider group>=group:<group>`);
      const [, claim, kind, target] = match as unknown as [string, string, 'role' | 'group', string];
      if (kind === 'role') {
        if (!(ROLES as readonly string[]).includes(target.trim())) throw new Error(`${where}: the role in "${item}" must be one of ${ROLES.join(', ')} (root is never given by a provider)`);
        return { claim: claim.trim(), role: target.trim() as GroupRule extends { role: infer R } ? R : never };
      }
      return { claim: claim.trim(), group: target.trim() };
    });
}

const providerSchema = z.object({
  name: z.string().regex(NAME),
  issuer: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().default(''),
  scopes: z.string().optional(),
  groupsClaim: z.string().optional(),
  rules: z.string().optional(),
});

export default definePluginEnv(
  {
    OIDC_ISSUER: doc(text(), '', 'Single sign-on (the `sso` plugin): the OpenID Connect issuer URL of the team\'s identity provider (Keycloak realm, Authentik, Entra ID, Google, Okta). Register `<origin>/api/sso/callback` as its redirect URI'),
    OIDC_CLIENT_ID: doc(text(), '', 'The client id shellchat has at `OIDC_ISSUER`'),
    OIDC_CLIENT_SECRET: doc(text(), '', 'The client secret shellchat has at `OIDC_ISSUER` (server only); empty for a public client (PKCE alone)'),
    OIDC_NAME: doc(text('default'), '`default`', 'The name of the `OIDC_ISSUER` provider, as people type it (`:login sso <name>`)'),
    OIDC_PROVIDERS: doc(text(), '', 'Several identity providers, as JSON: `[{"name":"corp","issuer":"https://...","clientId":"...","clientSecret":"...","scopes":"openid email profile","groupsClaim":"groups","rules":"admins=role:super_user"}]`; each field but name, issuer and clientId falls back to the `OIDC_*` variable'),
    OIDC_SCOPES: doc(text('openid email profile'), '`openid email profile`', 'The scopes asked for at login (`openid` is always added)'),
    OIDC_GROUPS_CLAIM: doc(text('groups'), '`groups`', 'The ID token claim that holds the person\'s groups at the provider'),
    OIDC_GROUP_RULES: doc(list, '', 'How provider groups map at every login, comma-separated: `<provider group>=role:<user|plus_user|super_user>` or `<provider group>=group:<shellchat group>`. A person no longer in the provider group loses the role or the group at the next login'),
    OIDC_SIGNUP: doc(flagOn, '`true`', 'Whether a first sign-on creates an account; off, only people with an account (linked, or with the same verified e-mail) sign on'),
    OIDC_LOCAL_SIGNUP: doc(flagOn, '`true`', 'Whether people may still sign up with `:user add` (root adding an account always works)'),
    OIDC_LOCAL_LOGIN: doc(text('everyone'), '`everyone`', 'Who may still log in with a password: `everyone`, or a comma-separated list of usernames; root always may (break-glass)'),
    OIDC_CLOCK_TOLERANCE: doc(number(30, 0, 600, true), '`30`', 'Seconds of clock difference with the provider allowed when checking an ID token\'s times'),
  },
  (e): SsoConfig => {
    const fallback = { scopes: e.OIDC_SCOPES, groupsClaim: e.OIDC_GROUPS_CLAIM, rules: e.OIDC_GROUP_RULES.join(',') };
    const providers: Provider[] = [];
    if (e.OIDC_ISSUER) {
      if (!URL.canParse(e.OIDC_ISSUER)) throw new Error(`OIDC_ISSUER must be a URL, got ${e.OIDC_ISSUER}`);
      if (!e.OIDC_CLIENT_ID) throw new Error('OIDC_ISSUER is set without OIDC_CLIENT_ID: set the client id shellchat has at the provider');
      if (!NAME.test(e.OIDC_NAME)) throw new Error(`OIDC_NAME must be a short lower-case name, got ${e.OIDC_NAME}`);
      providers.push({ name: e.OIDC_NAME, issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, scopes: fallback.scopes, groupsClaim: fallback.groupsClaim, rules: parseRules(fallback.rules, 'OIDC_GROUP_RULES') });
    }
    if (e.OIDC_PROVIDERS) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(e.OIDC_PROVIDERS);
      } catch {
        throw new Error('OIDC_PROVIDERS must be a JSON list of providers');
      }
      const checked = z.array(providerSchema).safeParse(parsed);
      // The message names the field, never a value: a client secret could be in it.
      if (!checked.success) throw new Error(`OIDC_PROVIDERS: ${checked.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      for (const p of checked.data) {
        providers.push({
          name: p.name,
          issuer: p.issuer,
          clientId: p.clientId,
          clientSecret: p.clientSecret,
          scopes: p.scopes ?? fallback.scopes,
          groupsClaim: p.groupsClaim ?? fallback.groupsClaim,
          rules: parseRules(p.rules ?? fallback.rules, `OIDC_PROVIDERS ${p.name}`),
        });
      }
    }
    const names = providers.map((p) => p.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new Error(`Two identity providers are named ${twice}: give each its own name`);
    const local = e.OIDC_LOCAL_LOGIN.trim().toLowerCase();
    return {
      providers,
      signUp: e.OIDC_SIGNUP,
      localSignUp: e.OIDC_LOCAL_SIGNUP,
      localLogin: local === 'everyone' ? 'everyone' : local.split(',').map((s) => s.trim()).filter(Boolean),
      clockToleranceSeconds: e.OIDC_CLOCK_TOLERANCE,
    };
  },
);
