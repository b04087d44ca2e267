import { describe, expect, it } from 'vitest';
import { fixedClock } from '../lib/time';
import { SlidingWindowThrottle } from './throttle';

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
