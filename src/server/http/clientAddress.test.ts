import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { addressKey, addressNetwork, clientAddress } from './clientAddress.ts';

describe('clientAddress', () => {
  const seen = async (trustProxy: boolean, forwarded?: string) => {
    const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustProxy)));
    return (await app.request('/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })).text();
  };

  it('takes the entry the trusted proxy appended (the last), not one the client wrote before it', async () => {
    expect(await seen(true, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await seen(true, ' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('does not believe X-Forwarded-For without TRUST_PROXY', async () => {
    expect(await seen(false, '198.51.100.1')).toBe('unknown');
  });
});

describe('addressNetwork and addressKey', () => {
  it('counts an IPv6 address by its /64, and an IPv4-mapped one as IPv4', () => {
    expect(addressNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('unknown')).toBe('unknown');
  });

  it('gives one network however an IPv6 address is written (case, zeros, a zone)', () => {
    const network = '2001:db8:85a3:8d3::/64';
    expect(addressNetwork('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(network);
    expect(addressNetwork('2001:0DB8:85a3:08d3::1')).toBe(network);
    expect(addressNetwork('2001:db8:85a3:8d3::abcd:1%eth0')).toBe(network);
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('2001:db8:85a3:8d4::1')).not.toBe(network);
  });

  it('keys an address with the secret: the same network gives the same key, and the key holds no address', () => {
    const key = addressKey('secret-1', '2001:db8:1:2::1');
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(addressKey('secret-1', '2001:db8:1:2:aaaa::9')).toBe(key);
    expect(addressKey('secret-1', '2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('secret-2', '2001:db8:1:2::1')).not.toBe(key);
    expect(addressKey('secret-1', '::ffff:203.0.113.7')).toBe(addressKey('secret-1', '203.0.113.7'));
  });
});
