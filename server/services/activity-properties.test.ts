import { describe, expect, it } from 'vitest';
import { capProperties, MAX_PROPERTIES_BYTES } from './activity-properties';

const stored = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const names = (n: number) => Array.from({ length: n }, (_, i) => `world/region/r.${i}.${i}.mca`);

describe('capProperties', () => {
  it('keeps properties that fit as they are', () => {
    const props = { directory: '/logs', files: names(10) };
    expect(capProperties(props)).toBe(props);
  });

  it('keeps the first entries of a long list and counts the ones left out', () => {
    const files = names(5_000);
    const out = capProperties({ directory: '/', files });
    expect(stored(out)).toBeLessThanOrEqual(MAX_PROPERTIES_BYTES);
    const kept = out.files as string[];
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toEqual(files.slice(0, kept.length));
    expect(out).toEqual({ directory: '/', files: kept, files_omitted: 5_000 - kept.length });
  });

  it('caps lists of renames too', () => {
    const files = names(2_000).map((n) => ({ from: n, to: `old/${n}` }));
    const out = capProperties({ directory: '/', files });
    expect(stored(out)).toBeLessThanOrEqual(MAX_PROPERTIES_BYTES);
    expect((out.files as unknown[]).length + (out.files_omitted as number)).toBe(2_000);
  });

  it('cuts the largest texts, keeping their start, when no list is to blame', () => {
    const out = capProperties({ old: 'a'.repeat(7_000), new: 'b'.repeat(6_000) });
    expect(stored(out)).toBeLessThanOrEqual(MAX_PROPERTIES_BYTES);
    expect(out).toEqual({ old: `${'a'.repeat(512)}…`, new: 'b'.repeat(6_000) });
  });

  it('stays under the cap whatever the shape', () => {
    const nested = { deep: { deeper: names(3_000) } };
    const many = Object.fromEntries(names(3_000).map((n) => [n, 1]));
    for (const props of [nested, many]) expect(stored(capProperties(props))).toBeLessThanOrEqual(MAX_PROPERTIES_BYTES);
  });
});
