// oidc-provider (a dev dependency for the tests) ships no types: what the fixture uses of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    Client: { prototype: { redirectUriAllowed(uri: string): boolean } };
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
