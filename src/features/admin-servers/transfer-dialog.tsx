import { useQuery } from '@tanstack/react-query';
import { applicationServerTransferSchema, type ApplicationServerTransferInput } from '../../contract/admin-server-transfer';
import { type ApplicationServer } from '../../contract/admin-servers';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { SelectField } from '../../components/ui/field';
import { useContractForm } from '../../lib/use-contract-form';
import { adminServerQueries, useTransferServer } from './api';
import { T, useT } from './messages';
import { PortOptions, PortsField, useFreePorts } from './free-ports';

const FIELDS = ['node_id', 'allocation_id', 'allocation_additional'] as const;
const orUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * Moving the server to another node: its files are sent there while it is stopped, and it comes
 * back on the new node's ports. The primary port is one of the target's free ones, or the lowest
 * free port of its range when none is picked.
 */
export function TransferDialog({ server, open, onOpenChange }: { server: ApplicationServer; open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT();
  const transfer = useTransferServer();
  const nodes = useQuery({ ...adminServerQueries.nodes(), enabled: open });
  const defaultValues: ApplicationServerTransferInput = { node_id: '', allocation_additional: [] };
  const form = useContractForm(applicationServerTransferSchema, defaultValues);
  const { errors } = form.formState;
  const nodeId = Number(form.watch('node_id')) || 0;
  const { ports, loading } = useFreePorts(nodeId, open);
  const primary = form.watch('allocation_id');
  const targets = (nodes.data?.data ?? []).map((n) => n.attributes).filter((n) => n.id !== server.node);

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminServers.transfer.title')}
      description={
        <T
          k="adminServers.transfer.body"
          values={{ name: server.name }}
          components={{ 0: <span className="font-medium break-all text-zinc-100" /> }}
        />
      }
      submitLabel={t('adminServers.transfer')}
      form={form}
      defaultValues={defaultValues}
      mutation={transfer}
      errorFields={{ fields: FIELDS }}
      onSubmit={(body, signal) => transfer.mutateAsync({ server, body, signal })}
    >
      <SelectField label={t('adminServers.node')} error={errors.node_id?.message} {...form.register('node_id')}>
        <option value="">{t('adminServers.ports.chooseNode')}</option>
        {targets.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('adminServers.ports.primary')}
        error={errors.allocation_id?.message}
        hint={nodeId && !loading && ports.length === 0 ? t('adminServers.transfer.noFree') : undefined}
        {...form.register('allocation_id', { setValueAs: orUndefined })}
      >
        <option value="">{t('adminServers.transfer.lowest')}</option>
        <PortOptions ports={ports} />
      </SelectField>
      {ports.length > 1 && (
        <PortsField
          label={t('adminServers.transfer.additional')}
          ports={ports}
          except={primary}
          hint={t('adminServers.transfer.additionalHint')}
          error={errors.allocation_additional?.message}
          {...form.register('allocation_additional')}
        />
      )}
    </MutationDialog>
  );
}
