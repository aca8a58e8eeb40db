import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { addressBucket, requestAddress } from './address.ts';

const seen = async (trustProxy: boolean, headers: Record<string, string>) => {
  const app = new Hono().get('/', (c) => c.text(requestAddress(c, trustProxy)));
  return (await app.request('/', { headers })).text();
};

describe('requestAddress', () => {
  it('takes the address the trusted proxy appended, not one the client wrote before it', async () => {
    // nginx's $proxy_add_x_forwarded_for appends the peer to whatever the client sent.
    expect(await seen(true, { 'x-forwarded-for': '10.9.9.9, 198.51.100.4, 203.0.113.7' })).toBe('203.0.113.7');
    expect(await seen(true, { 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    // No socket under app.request: the fallback.
    expect(await seen(false, { 'x-forwarded-for': '203.0.113.7' })).toBe('unknown');
  });
});

describe('addressBucket', () => {
  it('keeps IPv4 addresses whole, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const bucket = '2001:db8:85a3:8d3::/64';
    expect(addressBucket('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(bucket);
    expect(addressBucket('2001:0DB8:85a3:08d3::1')).toBe(bucket);
    expect(addressBucket('2001:db8:85a3:8d3::abcd:1%eth0')).toBe(bucket);
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('2001:db8:85a3:8d4::1')).not.toBe(bucket);
  });
});
