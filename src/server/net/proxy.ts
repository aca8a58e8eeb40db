// The operator's proxy for the server's own requests (HTTPS_PROXY, HTTP_PROXY, NO_PROXY): made
// undici's global dispatcher, which Node's fetch (the AI SDK's providers, the operator's APIs)
// follows, and which the direct relay then uses for system models (upstream.ts). The
// egress-safe fetch of user-supplied URLs has its own dispatcher and never goes through it.
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';
import { useProxyForSystemModels } from '../transport/upstream.ts';

export interface ProxySettings {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

/** Sets the proxy when one is configured; returns whether it did. */
export function applyProxy(settings: ProxySettings): boolean {
  if (!settings.httpsProxy && !settings.httpProxy) return false;
  setGlobalDispatcher(new EnvHttpProxyAgent({ httpsProxy: settings.httpsProxy, httpProxy: settings.httpProxy, noProxy: settings.noProxy }));
  useProxyForSystemModels(true);
  return true;
}
