import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, retryHint } from './api';

describe('the throttle wait', () => {
  it('reads Retry-After as seconds or as a date, and nothing else', () => {
    expect(retryAfterSeconds('420')).toBe(420);
    const inNinety = new Date(Date.now() + 90_000).toUTCString();
    expect(retryAfterSeconds(inNinety)).toBeGreaterThanOrEqual(88);
    expect(retryAfterSeconds(inNinety)).toBeLessThanOrEqual(90);
    expect(retryAfterSeconds('soon')).toBeNull();
  });

  it('says it in whole minutes, or seconds under one', () => {
    expect(retryHint(400)).toBe('Try again in 7 minutes.');
    expect(retryHint(60)).toBe('Try again in 1 minute.');
    expect(retryHint(1)).toBe('Try again in 1 second.');
    expect(retryHint(30)).toBe('Try again in 30 seconds.');
  });
});
