// Encryption at rest for model API keys, store passwords and node keys (DESIGN §4), plus the
// mask used wherever such a key has to be shown.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';
// A fixed, purpose-specific info string: the same server secret used elsewhere (signed links)
// yields an unrelated key here. Changing it makes every stored secret unreadable.
const HKDF_INFO = 'shellchat secretBox v1 aes-256-gcm';
const IV_BYTES = 12; // the GCM standard nonce size; random per seal
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function createSecretBox(secret: string): SecretBox {
  if (!secret) throw new Error('createSecretBox needs a non-empty server secret.');
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), HKDF_INFO, 32));

  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
      return [VERSION, ...parts].join('.');
    },

    open(sealed) {
      const parts = sealed.split('.');
      // Buffer.from(..., 'base64url') silently skips bad characters, so check the alphabet first.
      if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((p) => BASE64URL.test(p))) {
        throw new Error(`Not a sealed secret: expected "${VERSION}.<iv>.<tag>.<ciphertext>".`);
      }
      const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Not a sealed secret: bad IV or tag length.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        // GCM cannot tell the two apart, and neither detail should reach a user anyway.
        throw new Error('Could not open the sealed secret: it was altered or sealed with a different server secret.');
      }
    },
  };
}

const SHOW_START = 3;
const SHOW_END = 2;
// Below this length, showing 5 characters would give away too much of the secret.
const MIN_LENGTH_TO_REVEAL = 12;

/** 'sk-abcdefgh12' → 'sk-********12'; secrets shorter than 12 characters become all asterisks. */
export function mask(secret: string): string {
  const chars = Array.from(secret); // code points, so a mask never splits a surrogate pair
  if (chars.length < MIN_LENGTH_TO_REVEAL) return '*'.repeat(chars.length);
  const hidden = chars.length - SHOW_START - SHOW_END;
  return chars.slice(0, SHOW_START).join('') + '*'.repeat(hidden) + chars.slice(-SHOW_END).join('');
}
