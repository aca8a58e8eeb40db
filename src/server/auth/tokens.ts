// Opaque random tokens: the client holds the token, the database only its SHA-256.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** An HMAC signature for links that must not be forged (e-mail subscription changes). */
export function sign(secret: string, ...parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

export function verifySignature(secret: string, signature: string, ...parts: string[]): boolean {
  const expected = Buffer.from(sign(secret, ...parts));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
