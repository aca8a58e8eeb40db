import { describe, expect, it } from 'vitest';
import { createSecretBox, mask } from './secretBox.ts';

const box = createSecretBox('server-secret-for-tests');

describe('createSecretBox', () => {
  it('round-trips text, including empty and non-ASCII', () => {
    for (const plain of ['sk-abcdefgh12', '', 'pässwörd 🔑', 'x'.repeat(10_000)]) {
      expect(box.open(box.seal(plain))).toBe(plain);
    }
  });

  it('writes v1.<iv>.<tag>.<ciphertext> in base64url with a fresh 12-byte IV each time', () => {
    const sealed = box.seal('sk-live-key');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('sk-live-key');
    expect(box.seal('sk-live-key')).not.toBe(sealed);
  });

  it('opens with the same secret in a new box (the key is derived, not random)', () => {
    expect(createSecretBox('server-secret-for-tests').open(box.seal('kept'))).toBe('kept');
  });

  it('refuses a wrong key', () => {
    const sealed = box.seal('sk-live-key');
    expect(() => createSecretBox('another-secret').open(sealed)).toThrow(
      'Could not open the sealed secret: it was altered or sealed with a different server secret.',
    );
  });

  it('refuses any single altered part', () => {
    const sealed = box.seal('sk-live-key');
    for (let part = 1; part <= 3; part++) {
      const parts = sealed.split('.');
      const bytes = Buffer.from(parts[part]!, 'base64url');
      bytes[0]! ^= 1;
      parts[part] = bytes.toString('base64url');
      expect(() => box.open(parts.join('.'))).toThrow(/altered|bad IV or tag/);
    }
  });

  it('refuses malformed input with a clear message', () => {
    for (const bad of ['', 'plain', 'v2.a.b.c', 'v1.a.b', 'v1.!!.??.**', `v1.${'A'.repeat(16)}.${'A'.repeat(22)}.a.b`]) {
      expect(() => box.open(bad), bad).toThrow(/Not a sealed secret/);
    }
  });

  it('needs a secret', () => {
    expect(() => createSecretBox('')).toThrow(/non-empty/);
  });
});

describe('mask', () => {
  it('shows at most the first 3 and last 2 characters', () => {
    expect(mask('sk-abcdefgh12')).toBe('sk-********12');
    expect(mask('sk-proj-0123456789abcdef9z')).toBe('sk-*********************9z');
  });

  it('hides short secrets completely', () => {
    expect(mask('')).toBe('');
    expect(mask('abc')).toBe('***');
    expect(mask('abcdefghijk')).toBe('***********');
    expect(mask('abcdefghijkl')).toBe('abc*******kl');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(mask('🔑🔑🔑abcdefghi🔒🔒')).toBe('🔑🔑🔑*********🔒🔒');
  });
});
