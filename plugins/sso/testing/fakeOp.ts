// A provider that lies, for the hostile cases: real discovery, JWKS and token endpoint over
// HTTP, whose ID token the test chooses (another issuer or audience, a wrong nonce, expired,
// unsigned, signed by another key). Its authorization endpoint sends the browser straight back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

export type Lie = 'none' | 'issuer' | 'audience' | 'nonce' | 'expired' | 'unsigned' | 'otherKey';

export interface FakeOp {
  issuer: string;
  clientId: string;
  lie: Lie;
  /** How many code exchanges the token endpoint answered. */
  exchanges: number;
  close(): Promise<void>;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startFakeOp(clientId = 'shellchat'): Promise<FakeOp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  /** The nonce of each code, as a real provider remembers it. */
  const nonces = new Map<string, string>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const op: FakeOp = { issuer, clientId, lie: 'none', exchanges: 0, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };

  async function idToken(code: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: 'hostile-sub',
      email: 'hostile@example.org',
      email_verified: true,
      nonce: op.lie === 'nonce' ? 'not-the-nonce' : (nonces.get(code) ?? ''),
    };
    if (op.lie === 'unsigned') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iss: issuer, aud: clientId, iat: now, exp: now + 300 })}.`;
    const key: CryptoKey = op.lie === 'otherKey' ? other.privateKey : privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(op.lie === 'issuer' ? 'http://127.0.0.1:1/other-issuer' : issuer)
      .setAudience(op.lie === 'audience' ? 'another-client' : clientId)
      .setIssuedAt(op.lie === 'expired' ? now - 7200 : now)
      .setExpirationTime(op.lie === 'expired' ? now - 3600 : now + 300)
      .sign(key);
  }

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const code = `code-${Math.random().toString(36).slice(2)}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', issuer);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => (body += String(d)));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        op.exchanges++;
        if (!nonces.has(code)) return json(400, { error: 'invalid_grant', error_description: 'the code is unknown or used' });
        void idToken(code).then((id_token) => {
          nonces.delete(code);
          json(200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 300, id_token });
        });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  return op;
}
