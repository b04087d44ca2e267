import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { sshKeyCreateSchema, type SshKey } from '../../contract/account';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { EmptyState } from '../../components/ui/states';
import { QueryList } from '../../components/ui/query-list';
import { useContractForm } from '../../lib/use-contract-form';
import { accountQueries, useCreateSshKey, useRemoveSshKey } from './api';
import { KeyList } from './key-list';
import { RelativeTime } from './relative-time';

const defaults = { name: '', public_key: '' };

/** The account's SSH public keys (for SFTP): add, list with fingerprints, remove. */
export function SshKeysSection() {
  const query = useQuery(accountQueries.sshKeys());
  const now = useMemo(() => new Date(query.dataUpdatedAt || Date.now()), [query.dataUpdatedAt]);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SshKey | null>(null);
  const create = useCreateSshKey();
  const remove = useRemoveSshKey();
  const form = useContractForm(sshKeyCreateSchema, defaults);
  const { errors } = form.formState;

  return (
    <Card
      title="SSH keys"
      actions={
        <Button size="sm" onClick={() => setAdding(true)}>
          Add SSH key
        </Button>
      }
    >
      <p className="mb-4 text-sm text-zinc-400">Public keys that may sign in over SFTP as you, in place of your password.</p>
      <QueryList query={query} items={query.data} empty={<EmptyState title="No SSH keys yet" />}>
        {(keys) => (
          <KeyList
            label="SSH keys"
            action="Remove"
            onAction={(fingerprint) => setRemoving(keys.find((k) => k.fingerprint === fingerprint) ?? null)}
            items={keys.map((k) => ({
              key: k.fingerprint,
              title: k.name,
              id: `SHA256:${k.fingerprint}`,
              detail: (
                <>
                  Added <RelativeTime value={k.created_at} now={now} />
                </>
              ),
            }))}
          />
        )}
      </QueryList>

      <MutationDialog
        open={adding}
        onOpenChange={setAdding}
        title="Add SSH key"
        submitLabel="Add"
        form={form}
        defaultValues={defaults}
        mutation={create}
        errorFields={{ fields: ['name', 'public_key'] }}
        onSubmit={(values, signal) => create.mutateAsync({ ...values, signal })}
      >
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextAreaField
          label="Public key"
          rows={5}
          placeholder="ssh-ed25519 AAAA… you@example"
          error={errors.public_key?.message}
          {...form.register('public_key')}
        />
      </MutationDialog>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => {
          if (!o) setRemoving(null);
        }}
        title="Remove SSH key"
        description={removing ? `“${removing.name}” (SHA256:${removing.fingerprint}) can no longer sign in over SFTP.` : undefined}
        confirmLabel="Remove"
        danger
        mutation={remove}
        onConfirm={(signal) => (removing ? remove.mutateAsync({ fingerprint: removing.fingerprint, signal }) : undefined)}
      />
    </Card>
  );
}
