// The relying party, on openid-client (a certified implementation): discovery per provider
// (kept once it answered), and what a failure of the library or the provider means for the
// person, with the details for the operator's log.
import * as client from 'openid-client';
import type { Message } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { Provider, SsoConfig } from './env.ts';

/** Seconds a discovery, key or token request may take before the provider counts as not answering. */
export const REQUEST_TIMEOUT = 10;
/** The most an issuer's answer may weigh: a discovery document, keys or tokens are a few kB. */
export const MAX_ANSWER_BYTES = 1_000_000;

/**
 * fetch for the issuer's calls: the issuer is the operator's (trusted, and often internal, so
 * not the egress-safe fetch), but a broken one costs at most REQUEST_TIMEOUT and MAX_ANSWER_BYTES.
 */
export async function issuerFetch(url: string, options: client.CustomFetchOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const res = await fetch(url, { ...options, signal } as RequestInit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let part = await reader?.read(); reader && part && !part.done; part = await reader.read()) {
    size += part.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw Object.assign(new Error(`the issuer's answer from ${new URL(url).pathname} is over ${MAX_ANSWER_BYTES} bytes`), { code: 'SSO_ANSWER_TOO_LARGE' });
    }
    chunks.push(part.value);
  }
  const empty = res.status === 204 || res.status === 304;
  return new Response(empty ? null : Buffer.concat(chunks), { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** An error and its causes, as the operator's log says why (fetch failed ← connect ECONNREFUSED ...). */
export function why(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; code?: string; cause?: unknown } | undefined, n = 0; e && n < 4; e = e.cause as typeof e, n++) {
    parts.push([e.code, e.message].filter(Boolean).join(' '));
  }
  return parts.filter(Boolean).join(' ← ');
}

export function relyingParty(config: SsoConfig) {
  const discovered = new Map<string, Promise<client.Configuration>>();
  return {
    /** The provider's metadata and keys; a failed discovery is tried again at the next sign-on. */
    configuration(provider: Provider): Promise<client.Configuration> {
      let found = discovered.get(provider.name);
      if (!found) {
        const issuer = new URL(provider.issuer);
        found = client
          .discovery(
            issuer,
            provider.clientId,
            { [client.clockTolerance]: config.clockToleranceSeconds },
            provider.clientSecret ? client.ClientSecretPost(provider.clientSecret) : client.None(),
            // The issuer is the operator's (not a person's) URL: an internal Keycloak over http is allowed.
            { timeout: REQUEST_TIMEOUT, [client.customFetch]: issuerFetch, ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}) },
          )
          .then((configuration) => {
            configuration.timeout = REQUEST_TIMEOUT;
            // The ID token's signature is checked against the provider's keys (by default the
            // library trusts TLS alone for a token from the token endpoint).
            client.enableNonRepudiationChecks(configuration);
            return configuration;
          });
        discovered.set(provider.name, found);
        found.catch(() => discovered.delete(provider.name));
      }
      return found;
    },
  };
}

export type RelyingParty = ReturnType<typeof relyingParty>;

/** The claims an ID token check names, as a person reads them. */
const CLAIM_NAMES: Record<string, string> = { iss: 'issuer', aud: 'audience', nonce: 'nonce', azp: 'authorized party', sub: 'subject' };

/** What a failed code exchange says to the person, and what the log says to the operator. */
export function explainFailure(err: unknown, provider: Provider, redirectUri: string): { said: Message; log: Record<string, unknown> } {
  type Failure = { name?: string; code?: string; message?: string; error?: string; error_description?: string; cause?: unknown };
  const e = err as Failure;
  // openid-client wraps the check that failed (oauth4webapi's) with a code of its own.
  const inner = (e.cause instanceof Error ? e.cause : e) as Failure;
  const details = (inner.cause ?? {}) as { claim?: string; error?: string; error_description?: string; alg?: string };
  const providerError = e.error ?? details.error;
  const description = e.error_description ?? details.error_description;
  const log = { provider: provider.name, code: e.code, error: why(err), check: inner.message, providerError, providerDescription: description, claim: details.claim };
  const message = inner.message ?? '';
  if (e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return { said: MESSAGES.clockSkew, log };
  if (e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || e.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    return { said: MESSAGES.tokenInvalid(`the ${CLAIM_NAMES[details.claim ?? ''] ?? details.claim ?? 'claim'} does not match`), log };
  }
  if (providerError) {
    if (/redirect_uri/i.test(`${description ?? ''}`)) return { said: MESSAGES.redirectRefused(provider.name, redirectUri), log };
    return { said: MESSAGES.providerError(provider.name, providerError), log };
  }
  if (/signature verification failed/i.test(message)) return { said: MESSAGES.tokenInvalid('its signature does not verify'), log };
  if (/"alg"|JWS algorithm/i.test(message) || details.alg) return { said: MESSAGES.tokenInvalid('its signature algorithm is not accepted'), log };
  if (e.code === 'OAUTH_KEY_SELECTION_FAILED') return { said: MESSAGES.tokenInvalid('no key of the provider signed it'), log };
  if (e.name === 'TypeError' || e.code === 'OAUTH_RESPONSE_IS_NOT_JSON' || e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || /fetch|timeout|ECONN|abort|SSO_ANSWER_TOO_LARGE/i.test(why(err))) {
    return { said: MESSAGES.providerDown(provider.name), log };
  }
  return { said: MESSAGES.tokenInvalid(e.code ?? 'the provider answered what was not expected'), log };
}
