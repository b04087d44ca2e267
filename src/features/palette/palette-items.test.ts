import { describe, expect, it } from 'vitest';
import { matches } from './palette-items';

describe('matches', () => {
  it('finds an item by the starts of its words, in any case and order', () => {
    expect(matches('file', { label: 'New file' })).toBe(true);
    expect(matches('RESTART', { label: 'Restart server', detail: 'Survival' })).toBe(true);
    expect(matches('surv rest', { label: 'Restart server', detail: 'Survival' })).toBe(true);
    expect(matches('', { label: 'Anything' })).toBe(true);
  });

  it('does not find a word in the middle of another', () => {
    expect(matches('file', { label: 'Account: Profile' })).toBe(false);
    expect(matches('start', { label: 'Restart server' })).toBe(false);
  });
});
