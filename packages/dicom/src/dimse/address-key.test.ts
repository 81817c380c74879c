import { describe, expect, it } from 'vitest';
import { addressKeyOf } from './store-scp.js';

describe('addressKeyOf: what one remote address is for the per-address connection cap', () => {
  it('an IPv4 address, written plainly or IPv4-mapped, is itself', () => {
    expect(addressKeyOf('127.0.0.2')).toBe('127.0.0.2');
    expect(addressKeyOf('::ffff:127.0.0.2')).toBe('127.0.0.2');
  });

  it('IPv6 addresses of one /64 share a key, however they are written', () => {
    const a = addressKeyOf('2001:db8:0:1::1');
    expect(a).toBe('2001:db8:0:1::/64');
    expect(addressKeyOf('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe(a);
    expect(addressKeyOf('2001:db8:0:1:a::b%eth0')).toBe(a);
    expect(addressKeyOf('2001:db8:0:2::1')).not.toBe(a);
    expect(addressKeyOf('::1')).toBe('0:0:0:0::/64');
  });
});
