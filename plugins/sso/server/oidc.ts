// The relying party, on openid-client (a certified implementation): discovery per provider
// (kept once it answered), and what a failure of the library or the provider means for the
// person, with the details for the operator's log.
import * as client from 'openid-client';
import type { Message } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { Provider, SsoConfig } from './env.ts';

/** Seconds a discovery or token request may take before the provider counts as not answering. */
const REQUEST_TIMEOUT = 10;

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
            { timeout: REQUEST_TIMEOUT, ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}) },
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
  const log = { provider: provider.name, code: e.code, error: e.message, check: inner.message, providerError, providerDescription: description, claim: details.claim };
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
  if (e.name === 'TypeError' || e.code === 'OAUTH_RESPONSE_IS_NOT_JSON' || e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || /fetch|timeout|ECONN|abort/i.test(e.message ?? '')) {
    return { said: MESSAGES.providerDown(provider.name), log };
  }
  return { said: MESSAGES.tokenInvalid(e.code ?? 'the provider answered what was not expected'), log };
}
