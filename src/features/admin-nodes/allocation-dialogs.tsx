import * as z from 'zod/mini';
import { nodeAllocationCreateSchema, nodeAllocationUpdateSchema, type Node, type NodeAllocation } from '../../contract/nodes';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useCreateAllocations, useDeleteAllocation, useUpdateAllocation } from './api';

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
  const create = useCreateAllocations();
  const form = useContractForm(addSchema, ADD_DEFAULTS);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add allocations"
      description={<span className="break-all">{node.name}</span>}
      submitLabel="Add"
      form={form}
      defaultValues={ADD_DEFAULTS}
      mutation={create}
      errorFields={{ fields: ['ip', 'alias', 'ports'] }}
      onSubmit={(body, signal) => create.mutateAsync({ node, body, signal })}
    >
      <TextField
        label="IP address"
        autoComplete="off"
        hint="The address servers listen on (0.0.0.0 for all), or an IPv4 block such as 10.0.0.0/29."
        error={errors.ip?.message}
        {...form.register('ip')}
      />
      <TextField
        label="Alias"
        autoComplete="off"
        hint="Optional: the name shown to users instead of the address."
        error={errors.alias?.message}
        {...form.register('alias')}
      />
      <TextField
        label="Ports"
        autoComplete="off"
        placeholder="25565-25570, 25600"
        hint="Ports above 1024, and ranges of up to 1000, separated by commas."
        error={errors.ports?.message}
        {...form.register('ports')}
      />
    </MutationDialog>
  );
}

/** Sets the alias (and notes) of one allocation; an empty box clears it. */
export function AllocationAliasDialog({ node, allocation, open, onOpenChange }: DialogProps & { allocation: NodeAllocation }) {
  const update = useUpdateAllocation();
  const defaultValues = { ip_alias: allocation.alias ?? '', notes: allocation.notes ?? '' };
  const form = useContractForm(nodeAllocationUpdateSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Set alias"
      description={<span className="font-mono break-all">{`${allocation.ip}:${String(allocation.port)}`}</span>}
      submitLabel="Save"
      form={form}
      defaultValues={defaultValues}
      mutation={update}
      errorFields={{ fields: ['ip_alias', 'notes'] }}
      onSubmit={(body, signal) => update.mutateAsync({ node, allocation, body, signal })}
    >
      <TextField
        label="Alias"
        autoComplete="off"
        hint="Shown to users instead of the address."
        error={errors.ip_alias?.message}
        {...form.register('ip_alias')}
      />
      <TextField label="Notes" autoComplete="off" error={errors.notes?.message} {...form.register('notes')} />
    </MutationDialog>
  );
}

/** Removing is refused while a server holds the allocation: the panel's refusal shows in the dialog. */
export function RemoveAllocationDialog({ node, allocation, open, onOpenChange }: DialogProps & { allocation: NodeAllocation }) {
  const remove = useDeleteAllocation();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Remove allocation"
      description={
        <>
          <span className="font-mono break-all">{`${allocation.ip}:${String(allocation.port)}`}</span> is removed from {node.name}. An allocation a
          server holds cannot be removed.
        </>
      }
      confirmLabel="Remove"
      danger
      mutation={remove}
      onConfirm={(signal) => remove.mutateAsync({ node, allocation, signal })}
    />
  );
}
