import { describe, expect, it } from 'vitest';
import { primaryAddress } from './server-list-format';

const alloc = (id: number, ip: string, port: number, is_default: boolean, ip_alias: string | null = null) => ({
  object: 'allocation' as const,
  attributes: { id, ip, ip_alias, port, notes: null, is_default },
});
const withAllocations = (data: ReturnType<typeof alloc>[]) => ({
  relationships: { allocations: { object: 'list' as const, data }, variables: { object: 'null_resource' as const, attributes: null } },
});

describe('primaryAddress', () => {
  it('is the default allocation, alias first', () => {
    expect(primaryAddress(withAllocations([alloc(1, '10.0.0.1', 1, false), alloc(2, '10.0.0.2', 25565, true, 'mc.example.test')]))).toBe(
      'mc.example.test:25565',
    );
    expect(primaryAddress(withAllocations([alloc(2, '10.0.0.2', 25565, true, '')]))).toBe('10.0.0.2:25565');
  });
  it('brackets IPv6 and copes with no allocation', () => {
    expect(primaryAddress(withAllocations([alloc(1, '2001:db8::1', 27015, true)]))).toBe('[2001:db8::1]:27015');
    expect(primaryAddress(withAllocations([]))).toBeNull();
  });
});
