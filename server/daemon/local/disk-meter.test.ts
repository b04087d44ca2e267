import { describe, expect, it } from 'vitest';
import { DiskMeter } from './disk-meter';

describe('a disk meter', () => {
  it('measures a watched volume every 2 s, and one shown only every 10 s', async () => {
    let clock = 0;
    let measures = 0;
    const meter = new DiskMeter(
      () => Promise.resolve((measures += 1) * 100),
      () => clock,
    );
    expect(meter.bytes).toBe(0);
    expect(await meter.figure(false)).toBe(100); // the first figure is measured at once
    clock = 9_999;
    expect(await meter.figure(false)).toBe(100);
    expect(await meter.figure(true)).toBe(200); // watched: older than 2 s
    clock = 11_000;
    expect(await meter.figure(true)).toBe(200);
    clock = 12_000;
    expect(await meter.figure(true)).toBe(300);
    expect(measures).toBe(3);
  });

  it('keeps the last figure when the volume cannot be measured, and reads 0 without a measure', async () => {
    let fail = false;
    const meter = new DiskMeter(
      () => (fail ? Promise.reject(new Error('gone')) : Promise.resolve(42)),
      () => 0,
    );
    expect(await meter.measureNow()).toBe(42);
    fail = true;
    expect(await meter.measureNow()).toBe(42);
    expect(await new DiskMeter(undefined, () => 0).measureNow()).toBe(0);
  });
});
