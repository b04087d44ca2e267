import * as z from 'zod/mini';
import { nodeAllocationCreateSchema, nodeAllocationUpdateSchema, type Node, type NodeAllocation } from '../../contract/nodes';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useCreateAllocations, useDeleteAllocation, useUpdateAllocation } from './api';
import { T, useT } from './messages';

interface DialogProps {
  node: Node;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The contract's new-allocations body, with the ports typed as one line: "25565-25570, 25600". */
const addSchema = z.object({
  ip: nodeAllocationCreateSchema.shape.ip,
  alias: z.pipe(
    z.string(),
    z.transform((s) => s.trim() || null),
  ),
  ports: z.pipe(
    z.pipe(
      z.string(),
      z.transform((s) => s.split(/[\s,]+/).filter(Boolean)),
    ),
    nodeAllocationCreateSchema.shape.ports,
  ),
});
const ADD_DEFAULTS = { ip: '', alias: '', ports: '' };

/** Adds an address's ports: single ports and `start-end` ranges; ones the node has already are skipped. */
export function AddAllocationsDialog({ node, open, onOpenChange }: DialogProps) {
  const t = useT();
  const create = useCreateAllocations();
  const form = useContractForm(addSchema, ADD_DEFAULTS);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminNodes.allocations.add')}
      description={<span className="break-all">{node.name}</span>}
      submitLabel={t('adminNodes.allocations.addButton')}
      form={form}
      defaultValues={ADD_DEFAULTS}
      mutation={create}
      errorFields={{ fields: ['ip', 'alias', 'ports'] }}
      onSubmit={(body, signal) => create.mutateAsync({ node, body, signal })}
    >
      <TextField
        label={t('adminNodes.allocations.ip')}
        autoComplete="off"
        hint={t('adminNodes.allocations.ipHint')}
        error={errors.ip?.message}
        {...form.register('ip')}
      />
      <TextField
        label={t('adminNodes.alias')}
        autoComplete="off"
        hint={t('adminNodes.allocations.aliasHint')}
        error={errors.alias?.message}
        {...form.register('alias')}
      />
      <TextField
        label={t('adminNodes.allocations.ports')}
        autoComplete="off"
        placeholder="25565-25570, 25600"
        hint={t('adminNodes.allocations.portsHint')}
        error={errors.ports?.message}
        {...form.register('ports')}
      />
    </MutationDialog>
  );
}

/** Sets the alias (and notes) of one allocation; an empty box clears it. */
export function AllocationAliasDialog({ node, allocation, open, onOpenChange }: DialogProps & { allocation: NodeAllocation }) {
  const t = useT();
  const update = useUpdateAllocation();
  const defaultValues = { ip_alias: allocation.alias ?? '', notes: allocation.notes ?? '' };
  const form = useContractForm(nodeAllocationUpdateSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminNodes.allocations.setAlias')}
      description={<span className="font-mono break-all">{`${allocation.ip}:${String(allocation.port)}`}</span>}
      submitLabel={t('adminNodes.save')}
      form={form}
      defaultValues={defaultValues}
      mutation={update}
      errorFields={{ fields: ['ip_alias', 'notes'] }}
      onSubmit={(body, signal) => update.mutateAsync({ node, allocation, body, signal })}
    >
      <TextField
        label={t('adminNodes.alias')}
        autoComplete="off"
        hint={t('adminNodes.allocations.aliasShownHint')}
        error={errors.ip_alias?.message}
        {...form.register('ip_alias')}
      />
      <TextField label={t('adminNodes.allocations.notes')} autoComplete="off" error={errors.notes?.message} {...form.register('notes')} />
    </MutationDialog>
  );
}

/** Removing is refused while a server holds the allocation: the panel's refusal shows in the dialog. */
export function RemoveAllocationDialog({ node, allocation, open, onOpenChange }: DialogProps & { allocation: NodeAllocation }) {
  const t = useT();
  const remove = useDeleteAllocation();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminNodes.allocations.removeTitle')}
      description={
        <T
          k="adminNodes.allocations.removeBody"
          values={{ address: `${allocation.ip}:${String(allocation.port)}`, node: node.name }}
          components={{ 0: <span className="font-mono break-all" /> }}
        />
      }
      confirmLabel={t('adminNodes.allocations.remove')}
      danger
      mutation={remove}
      onConfirm={(signal) => remove.mutateAsync({ node, allocation, signal })}
    />
  );
}
