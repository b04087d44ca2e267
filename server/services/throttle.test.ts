import { describe, expect, it } from 'vitest';
import { fixedClock } from '../lib/time';
import { ipBucketKey, SlidingWindowThrottle } from './throttle';

describe('SlidingWindowThrottle', () => {
  it('allows up to the limit, then reports when the oldest hit leaves the window', () => {
    const clock = fixedClock();
    const throttle = new SlidingWindowThrottle(clock, { max: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.retryAfterMs('k')).toBe(0);
      throttle.hit('k');
      clock.advance(10_000);
    }
    expect(throttle.retryAfterMs('k')).toBe(30_000);
    clock.advance(30_000);
    expect(throttle.retryAfterMs('k')).toBe(0);
  });

  it('keeps keys apart and forgets a cleared key', () => {
    const throttle = new SlidingWindowThrottle(fixedClock(), { max: 1, windowMs: 1000 });
    throttle.hit('a');
    expect(throttle.retryAfterMs('a')).toBe(1000);
    expect(throttle.retryAfterMs('b')).toBe(0);
    throttle.clear('a');
    expect(throttle.retryAfterMs('a')).toBe(0);
  });

  it('stays within its key budget under a flood of keys', () => {
    const throttle = new SlidingWindowThrottle(fixedClock(), { max: 1, windowMs: 1000 }, 100);
    for (let i = 0; i < 1000; i += 1) throttle.hit(`k${i}`);
    expect(throttle.retryAfterMs('k999')).toBe(1000);
    expect(throttle.retryAfterMs('k0')).toBe(0);
  });
});

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
