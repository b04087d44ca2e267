import { forwardRef, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SelectField, type SelectFieldProps } from '../../components/ui/field';
import { adminServerQueries } from './api';
import { useT } from './messages';

/*
 * A node's ports as the create form, the build dialog and the transfer dialog offer them: one
 * query, one way of naming a port, and one "several at once" picker that never offers the port
 * already chosen as primary.
 */

export interface Port {
  id: number;
  /** `alias:port`, else `ip:port`. */
  address: string;
}

/** The node's free allocations (none asked for while `node` is 0 or `enabled` is false). */
export function useFreePorts(node: number, enabled = true): { ports: Port[]; loading: boolean } {
  const free = useQuery({ ...adminServerQueries.freeAllocations(node), enabled: enabled && node > 0 });
  const ports = useMemo(
    () => (free.data?.data ?? []).map(({ attributes: a }) => ({ id: a.id, address: `${a.alias ?? a.ip}:${a.port}` })),
    [free.data],
  );
  return { ports, loading: enabled && node > 0 && free.isPending };
}

/** `<option>`s for `ports`, without the one whose id is `except`. */
export function PortOptions({ ports, except }: { ports: readonly Port[]; except?: number | string | null }) {
  return ports
    .filter((p) => String(p.id) !== String(except ?? ''))
    .map((p) => (
      <option key={p.id} value={p.id}>
        {p.address}
      </option>
    ));
}

export interface PortsFieldProps extends Omit<SelectFieldProps, 'multiple' | 'children'> {
  ports: readonly Port[];
  /** The primary port, never offered again here. */
  except?: number | string | null;
}

/** Several ports at once (a multiple select: Ctrl or Shift picks more than one). */
export const PortsField = forwardRef<HTMLSelectElement, PortsFieldProps>(function PortsField({ ports, except, hint, ...rest }, ref) {
  const t = useT();
  return (
    <SelectField ref={ref} multiple hint={hint ?? t('adminServers.ports.several')} {...rest}>
      <PortOptions ports={ports} except={except} />
    </SelectField>
  );
});
