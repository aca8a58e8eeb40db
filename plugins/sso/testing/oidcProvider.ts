// A real OpenID provider for the tests: oidc-provider (a certified OP) on loopback with test
// people whose claims the test sets (groups, email_verified), and its development login form.
// `signOn` walks that form over HTTP as a browser would and stops at the redirect back to
// shellchat, so a test chooses where (and how often) the callback is sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface Person {
  email: string;
  email_verified: boolean;
  preferred_username?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The redirect URIs the client has at the provider; a test adds shellchat's. */
  redirectUris: Set<string>;
  people: Map<string, Person>;
  close(): Promise<void>;
}

export async function startOidcProvider(clientId = 'shellchat', clientSecret = 'shellchat-client-secret'): Promise<TestProvider> {
  const people = new Map<string, Person>();
  const redirectUris = new Set<string>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: ['http://127.0.0.1/api/sso/callback'], grant_types: ['authorization_code'], response_types: ['code'] }],
    async findAccount(_ctx: unknown, id: string) {
      const person = people.get(id);
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
    // The claims in the ID token itself (as Keycloak and Entra ID put them), not only at userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  // Each test server has its own port: the redirect URIs are the test's to set.
  provider.Client.prototype.redirectUriAllowed = (uri: string) => redirectUris.has(uri);
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUris,
    people,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar for the provider's own cookies (the browser's, at the provider). */
function jar() {
  const cookies = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    return res;
  };
}

/**
 * Logs `login` in at the provider's form from its authorization URL, consents, and returns the
 * URL the provider sends the browser back to (shellchat's callback, with code and state).
 */
export async function throughLoginForm(authorizationUrl: string, login: string): Promise<string> {
  const go = jar();
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    const res = await go(url);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.includes('/api/sso/callback')) return next;
      url = next;
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`the provider answered ${res.status} without a form:\n${page.slice(0, 500)}`);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const posted = await go(new URL(action, url).href, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const after = posted.headers.get('location');
    if (!after) throw new Error(`the provider's form answered ${posted.status}`);
    url = new URL(after, url).href;
    if (url.includes('/api/sso/callback')) return url;
  }
  throw new Error('the provider never sent the browser back');
}
