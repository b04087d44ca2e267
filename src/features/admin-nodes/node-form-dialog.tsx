import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { nodeWriteSchema, type Node, type NodeWrite } from '../../contract/nodes';
import { Checkbox } from '../../components/ui/checkbox';
import { SelectField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { adminLocationQueries } from '../admin-locations/api';
import { useCreateNode, useUpdateNode } from './api';
import { T, useT } from './messages';

const FIELDS = [
  'name',
  'location_id',
  'fqdn',
  'scheme',
  'daemon_listen',
  'daemon_sftp',
  'memory',
  'memory_overallocate',
  'disk',
  'disk_overallocate',
  'upload_size',
  'behind_proxy',
  'public',
  'maintenance_mode',
] as const;

const NEW_NODE: NodeWrite = {
  name: '',
  location_id: 0,
  fqdn: '',
  scheme: 'https',
  daemon_listen: 8080,
  daemon_sftp: 2022,
  memory: 8192,
  memory_overallocate: 0,
  disk: 51200,
  disk_overallocate: 0,
  upload_size: 100,
  behind_proxy: false,
  public: true,
  maintenance_mode: false,
};

const valuesOf = (node: Node): NodeWrite => ({
  name: node.name,
  location_id: node.location_id ?? 0,
  fqdn: node.fqdn,
  scheme: node.scheme === 'http' ? 'http' : 'https',
  daemon_listen: node.daemon_listen,
  daemon_sftp: node.daemon_sftp,
  memory: node.memory,
  memory_overallocate: node.memory_overallocate,
  disk: node.disk,
  disk_overallocate: node.disk_overallocate,
  upload_size: node.upload_size,
  behind_proxy: node.behind_proxy,
  public: node.public,
  maintenance_mode: node.maintenance_mode,
});

const asNumber = { valueAsNumber: true } as const;

/**
 * Creating a node (`node` null) or changing one, with the contract's `nodeWriteSchema` (the
 * reference's StoreNodeRequest rules); a refusal about a field lands under it.
 */
export function NodeFormDialog({
  node,
  open,
  onOpenChange,
  onCreated,
}: {
  node: Node | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated?: (node: Node) => void;
}) {
  const t = useT();
  const create = useCreateNode();
  const update = useUpdateNode();
  const locations = useQuery({ ...adminLocationQueries.choices(), enabled: open });
  const first = locations.data?.[0]?.id ?? 0;
  const defaultValues: NodeWrite = node ? valuesOf(node) : { ...NEW_NODE, location_id: first };
  const form = useContractForm(nodeWriteSchema, defaultValues);
  const { errors } = form.formState;
  const num = (name: (typeof FIELDS)[number], label: string, hint?: string) => (
    <TextField label={label} type="number" inputMode="numeric" hint={hint} error={errors[name]?.message} {...form.register(name, asNumber)} />
  );

  return (
    <MutationDialog
      open={open && !locations.isPending}
      onOpenChange={onOpenChange}
      title={node ? t('adminNodes.form.edit') : t('adminNodes.create')}
      description={node ? <span className="break-all">{node.name}</span> : t('adminNodes.form.description')}
      wide
      submitLabel={node ? t('adminNodes.save') : t('adminNodes.create')}
      form={form}
      defaultValues={defaultValues}
      mutation={node ? update : create}
      errorFields={{ fields: FIELDS }}
      onSubmit={async (body, signal) => {
        if (node) return update.mutateAsync({ node, body, signal });
        const made = await create.mutateAsync({ body, signal });
        onCreated?.(made.attributes);
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label={t('adminNodes.form.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <SelectField label={t('adminNodes.form.location')} error={errors.location_id?.message} {...form.register('location_id', asNumber)}>
          {(locations.data ?? []).map((l) => (
            <option key={l.id} value={l.id}>
              {l.short}
            </option>
          ))}
        </SelectField>
      </div>
      {locations.data?.length === 0 && (
        <p className="text-sm text-amber-300">
          <T
            k="adminNodes.form.noLocations"
            components={{ 0: <Link to="/admin/locations" className="font-medium text-sky-400 hover:text-sky-300" /> }}
          />
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <TextField
          label={t('adminNodes.form.fqdn')}
          autoComplete="off"
          hint={t('adminNodes.form.fqdnHint')}
          error={errors.fqdn?.message}
          {...form.register('fqdn')}
        />
        <SelectField label={t('adminNodes.form.scheme')} error={errors.scheme?.message} {...form.register('scheme')}>
          <option value="https">https</option>
          <option value="http">http</option>
        </SelectField>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        {num('daemon_listen', t('adminNodes.form.daemonPort'))}
        {num('daemon_sftp', t('adminNodes.sftpPort'))}
        {num('upload_size', t('adminNodes.form.uploadSize'))}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {num('memory', t('adminNodes.form.memory'))}
        {num('memory_overallocate', t('adminNodes.form.memoryOver'), t('adminNodes.form.overHint'))}
        {num('disk', t('adminNodes.form.disk'))}
        {num('disk_overallocate', t('adminNodes.form.diskOver'), t('adminNodes.form.overHint'))}
      </div>
      <div className="flex flex-col gap-2 text-sm text-zinc-200">
        <label className="flex items-start gap-2">
          <Checkbox className="mt-0.5" {...form.register('public')} />
          <span>
            {t('adminNodes.form.public')}
            <span className="block text-xs text-zinc-400">{t('adminNodes.form.publicHint')}</span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <Checkbox className="mt-0.5" {...form.register('behind_proxy')} />
          <span>
            {t('adminNodes.form.behindProxy')}
            <span className="block text-xs text-zinc-400">{t('adminNodes.form.behindProxyHint')}</span>
          </span>
        </label>
        {node && (
          <label className="flex items-start gap-2">
            <Checkbox className="mt-0.5" {...form.register('maintenance_mode')} />
            <span>
              {t('adminNodes.form.maintenance')}
              <span className="block text-xs text-zinc-400">{t('adminNodes.form.maintenanceHint')}</span>
            </span>
          </label>
        )}
      </div>
    </MutationDialog>
  );
}
