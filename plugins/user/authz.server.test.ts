// Beside the user plugin's rows of the authorization matrix (authz.ts): the login tokens and
// signed e-mail links that stand in for a login (tests/security/authzSupport.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/server/auth/tokens.ts';
import { call, row, SECRET_KEY, startAuthzServer, stopAuthzServer, world } from '../../tests/security/authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('what stands in for a login', () => {
  it('treats an unknown or revoked login token as anonymous', async () => {
    expect((await call('GET', '/api/user/info', 'forged-token-that-was-never-issued')).status).toBe(401);
    const w = await world();
    expect((await call('GET', '/api/user/info', w.other.token)).status).toBe(200);
    expect((await call('POST', '/api/user/delete', w.root.token, { body: { username: w.other.username } })).status).toBe(200);
    expect((await call('GET', '/api/user/info', w.other.token)).status).toBe(401);
  });

  it('accepts a signed e-mail-subscription link from anyone, and refuses a forged or reused one', async () => {
    const w = await world();
    const query = (sig: string, value: '0' | '1') => ({ email: w.owner.email, email_subscription: value, sig });
    const link = (sig: string, value: '0' | '1') => call('GET', '/api/user/update/email-subscription', null, { query: query(sig, value) });
    expect((await link('A'.repeat(43), '0')).status).toBe(403);
    // A signature for unsubscribing does not subscribe, nor work for another address.
    const unsubscribe = sign(SECRET_KEY, 'email-subscription', w.owner.email, '0');
    expect((await link(unsubscribe, '1')).status).toBe(403);
    expect((await call('GET', '/api/user/update/email-subscription', null, { query: { email: w.other.email, email_subscription: '0', sig: unsubscribe } })).status).toBe(403);
    expect((await row(w.owner.username))!.email_subscription).toBe(1);
    expect((await row(w.other.username))!.email_subscription).toBe(1);
    expect((await link(unsubscribe, '0')).status).toBe(200);
    expect((await row(w.owner.username))!.email_subscription).toBe(0);
  });
});
