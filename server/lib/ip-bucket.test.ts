import { describe, expect, it } from 'vitest';
import { ipBucketKey } from './ip-bucket';

describe('ipBucketKey', () => {
  it('keeps IPv4 addresses as they are, including IPv4-mapped ones', () => {
    expect(ipBucketKey('192.0.2.7')).toBe('192.0.2.7');
    expect(ipBucketKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('puts every address of one IPv6 /64 in one bucket', () => {
    expect(ipBucketKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(ipBucketKey('2001:0db8:0000:0001:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(ipBucketKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucketKey('::1')).toBe('0:0:0:0::/64');
  });
});
