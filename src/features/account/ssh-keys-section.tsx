import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { sshKeyCreateSchema, type SshKey } from '../../contract/account';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { useContractForm } from '../../lib/use-contract-form';
import { accountQueries, useCreateSshKey, useRemoveSshKey } from './api';
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
      {query.isPending ? (
        <PageSpinner />
      ) : query.isError ? (
        <ErrorState error={query.error} />
      ) : query.data.length === 0 ? (
        <EmptyState title="No SSH keys yet" />
      ) : (
        <ul aria-label="SSH keys" className="divide-y divide-zinc-800/80 rounded-lg ring-1 ring-zinc-800">
          {query.data.map((k) => (
            <li key={k.fingerprint} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 space-y-1 text-sm">
                <p className="font-medium break-words text-zinc-100">{k.name}</p>
                <p className="font-mono text-xs break-all text-zinc-400">SHA256:{k.fingerprint}</p>
                <p className="text-xs text-zinc-400">
                  Added <RelativeTime value={k.created_at} now={now} />
                </p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                className="self-start sm:self-auto"
                onClick={() => setRemoving(k)}
                aria-label={`Remove ${k.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}

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
        <div className="flex flex-col gap-1.5">
          <label htmlFor="ssh-public-key" className="text-sm font-medium text-zinc-200">
            Public key
          </label>
          <textarea
            id="ssh-public-key"
            rows={5}
            spellCheck={false}
            placeholder="ssh-ed25519 AAAA… you@example"
            aria-invalid={errors.public_key ? true : undefined}
            aria-describedby={errors.public_key ? 'ssh-public-key-error' : undefined}
            className="rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs break-all text-zinc-100 ring-1 ring-zinc-700 ring-inset placeholder:text-zinc-500 focus:ring-2 focus:ring-sky-500 focus:outline-none"
            {...form.register('public_key')}
          />
          {errors.public_key && (
            <p id="ssh-public-key-error" role="alert" className="text-sm text-red-400">
              {errors.public_key.message}
            </p>
          )}
        </div>
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
