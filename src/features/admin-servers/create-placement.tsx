import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/mini';
import type { applicationServerCreateSchema } from '../../contract/admin-server-writes';
import { SelectField } from '../../components/ui/field';
import { adminServerQueries } from './api';
import { useT } from './messages';
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
  const t = useT();
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
  const nodeError = !nodeId && portMissing ? t('adminServers.placement.nodeMissing') : errors.deploy?.locations?.message;

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
      ? t('adminServers.placement.looking')
      : first !== undefined
        ? t('adminServers.placement.firstFree')
        : neighbours
          ? t('adminServers.placement.noFreeShared', { count: neighbours })
          : t('adminServers.placement.noFree');

  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.placement')}</legend>
      <SelectField
        label={t('adminServers.node')}
        value={nodeId || ''}
        onChange={(e) => {
          setNodeId(Number(e.target.value));
          form.setValue('allocation', undefined);
          form.setValue('deploy', undefined);
        }}
        error={nodeError}
      >
        <option value="">{t('adminServers.ports.chooseNode')}</option>
        {all.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('adminServers.ports.primary')}
        disabled={!nodeId || loading || first === undefined}
        value={first === undefined ? '' : String(primary ?? '')}
        onChange={(e) => pickPrimary(e.target.value)}
        error={nodeId ? portMissing : undefined}
        hint={hint}
      >
        {first === undefined ? <option value="">{t('adminServers.placement.anyPort')}</option> : <PortOptions ports={ports} />}
      </SelectField>
      {ports.length > 1 && (
        <PortsField
          label={t('adminServers.placement.extra')}
          className="sm:col-span-2"
          ports={ports}
          except={primary === undefined ? undefined : String(primary)}
          hint={t('adminServers.placement.extraHint')}
          error={errors.allocation?.additional?.message}
          {...form.register('allocation.additional')}
        />
      )}
    </fieldset>
  );
}
