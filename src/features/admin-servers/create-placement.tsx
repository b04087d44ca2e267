import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/mini';
import type { applicationServerCreateSchema } from '../../contract/admin-server-writes';
import { SelectField } from '../../components/ui/field';
import { adminServerQueries } from './api';
import { PortOptions, PortsField, useFreePorts } from './free-ports';

type Form = UseFormReturn<z.input<typeof applicationServerCreateSchema>, unknown, z.output<typeof applicationServerCreateSchema>>;

/**
 * Where the new server runs. A node that lists free allocations gets one of them as the primary
 * port (the first unless another is picked) and any others as extra ports: the API's
 * `allocation`, which names the node for certain. The application API has no "this node, any
 * port": for a node that lists none the only way is `deploy` over the node's location, which
 * picks among that location's nodes, so the hint says when other nodes share it.
 */
export function CreatePlacement({ form }: { form: Form }) {
  const nodes = useQuery(adminServerQueries.nodes());
  const [nodeId, setNodeId] = useState(0);
  const { ports, loading } = useFreePorts(nodeId);
  const all = (nodes.data?.data ?? []).map((n) => n.attributes);
  const node = all.find((n) => n.id === nodeId);
  const neighbours = all.filter((n) => n.id !== nodeId && node?.location_id != null && n.location_id === node.location_id).length;
  // useWatch, not watch: it also hears `allocation` being set as a whole.
  const primary = useWatch({ control: form.control, name: 'allocation.default' });
  const first = ports[0]?.id;
  const { errors } = form.formState;
  // Without a node no port can be picked: the contract's missing `allocation.default` is said on the node.
  const portMissing = errors.allocation?.default?.message;
  const nodeError = !nodeId && portMissing ? 'Choose the node the server runs on.' : errors.deploy?.locations?.message;

  // Once the node's free allocations are known: the first of them, else deployment over its location.
  useEffect(() => {
    if (!nodeId || loading) return;
    if (first !== undefined) {
      form.setValue('deploy', undefined);
      form.setValue('allocation', { default: String(first), additional: [] });
    } else {
      form.setValue('allocation', undefined);
      form.setValue('deploy', node?.location_id ? { locations: [node.location_id], dedicated_ip: false, port_range: [] } : undefined);
    }
  }, [form, nodeId, loading, first, node?.location_id]);

  const pickPrimary = (value: string) => {
    form.setValue('allocation.default', value);
    // The new primary is no longer an extra one.
    const extra = form.getValues('allocation.additional') ?? [];
    form.setValue(
      'allocation.additional',
      extra.filter((id) => String(id) !== value),
    );
  };
  const hint = !nodeId
    ? undefined
    : loading
      ? 'Looking for the node’s free allocations…'
      : first !== undefined
        ? 'One of the node’s free allocations; the first is taken unless you pick another.'
        : `This node lists no free allocations: the lowest free port of a node in its location is taken${
            neighbours
              ? `, and the location holds ${neighbours} other node${neighbours === 1 ? '' : 's'}, so the server may land on one of those. Add allocations to this node to place it here for certain`
              : ''
          }.`;

  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">Placement</legend>
      <SelectField
        label="Node"
        value={nodeId || ''}
        onChange={(e) => {
          setNodeId(Number(e.target.value));
          form.setValue('allocation', undefined);
          form.setValue('deploy', undefined);
        }}
        error={nodeError}
      >
        <option value="">Choose a node…</option>
        {all.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Primary port"
        disabled={!nodeId || loading || first === undefined}
        value={first === undefined ? '' : String(primary ?? '')}
        onChange={(e) => pickPrimary(e.target.value)}
        error={nodeId ? portMissing : undefined}
        hint={hint}
      >
        {first === undefined ? <option value="">Any free port</option> : <PortOptions ports={ports} />}
      </SelectField>
      {ports.length > 1 && (
        <PortsField
          label="Extra ports"
          className="sm:col-span-2"
          ports={ports}
          except={primary === undefined ? undefined : String(primary)}
          hint="More of the node’s free allocations for the server; Ctrl or Shift picks several."
          error={errors.allocation?.additional?.message}
          {...form.register('allocation.additional')}
        />
      )}
    </fieldset>
  );
}
