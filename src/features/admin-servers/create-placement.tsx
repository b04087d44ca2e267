import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/mini';
import type { applicationServerCreateSchema } from '../../contract/admin-server-writes';
import { SelectField } from '../../components/ui/field';
import { adminServerQueries } from './api';

type Form = UseFormReturn<z.input<typeof applicationServerCreateSchema>, unknown, z.output<typeof applicationServerCreateSchema>>;

/**
 * Where the new server runs: one of a node's free allocations (and more of them), or, when the
 * node lists none, any free port of a node in its location (the API's `deploy`).
 */
export function CreatePlacement({ form }: { form: Form }) {
  const nodes = useQuery(adminServerQueries.nodes());
  const [nodeId, setNodeId] = useState(0);
  const free = useQuery({ ...adminServerQueries.freeAllocations(nodeId), enabled: nodeId > 0 });
  const ports = free.data?.data.map((a) => a.attributes) ?? [];
  const { errors } = form.formState;
  const pickNode = (id: number) => {
    setNodeId(id);
    const node = nodes.data?.data.find((n) => n.attributes.id === id)?.attributes;
    form.setValue('allocation', undefined);
    form.setValue('deploy', node?.location_id ? { locations: [node.location_id], dedicated_ip: false, port_range: [] } : undefined);
  };
  const pickPort = (value: string) => {
    if (!value) return pickNode(nodeId);
    form.setValue('deploy', undefined);
    form.setValue('allocation', { default: value, additional: [] });
  };
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">Placement</legend>
      <SelectField label="Node" value={nodeId || ''} onChange={(e) => pickNode(Number(e.target.value))} error={errors.deploy?.locations?.message}>
        <option value="">Choose a node…</option>
        {(nodes.data?.data ?? []).map(({ attributes: n }) => (
          <option key={n.id} value={n.id}>
            {n.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Primary port"
        disabled={!nodeId}
        onChange={(e) => pickPort(e.target.value)}
        error={errors.allocation?.default?.message}
        hint="Any free port: the lowest free port of a node in this node's location."
      >
        <option value="">Any free port</option>
        {ports.map((a) => (
          <option key={a.id} value={a.id}>{`${a.alias ?? a.ip}:${a.port}`}</option>
        ))}
      </SelectField>
    </fieldset>
  );
}
