import { useMemo, useState } from 'react';
import { T, useT } from './messages';
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
  const t = useT();

  return (
    <Card
      title={t('account.section.sshKeys')}
      actions={
        <Button size="sm" onClick={() => setAdding(true)}>
          {t('account.sshKeys.add')}
        </Button>
      }
    >
      <p className="mb-4 text-sm text-zinc-400">{t('account.sshKeys.intro')}</p>
      <QueryList query={query} items={query.data} empty={<EmptyState title={t('account.sshKeys.empty')} />}>
        {(keys) => (
          <KeyList
            label={t('account.section.sshKeys')}
            action={t('account.remove')}
            onAction={(fingerprint) => setRemoving(keys.find((k) => k.fingerprint === fingerprint) ?? null)}
            items={keys.map((k) => ({
              key: k.fingerprint,
              title: k.name,
              id: `SHA256:${k.fingerprint}`,
              detail: <T k="account.sshKeys.added" values={{ time: <RelativeTime value={k.created_at} now={now} /> }} />,
            }))}
          />
        )}
      </QueryList>

      <MutationDialog
        open={adding}
        onOpenChange={setAdding}
        title={t('account.sshKeys.add')}
        submitLabel={t('account.sshKeys.submit')}
        form={form}
        defaultValues={defaults}
        mutation={create}
        errorFields={{ fields: ['name', 'public_key'] }}
        onSubmit={(values, signal) => create.mutateAsync({ ...values, signal })}
      >
        <TextField label={t('account.sshKeys.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextAreaField
          label={t('account.sshKeys.publicKey')}
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
        title={t('account.sshKeys.remove')}
        description={removing ? t('account.sshKeys.removeDescription', { name: removing.name, fingerprint: removing.fingerprint }) : undefined}
        confirmLabel={t('account.remove')}
        danger
        mutation={remove}
        onConfirm={(signal) => (removing ? remove.mutateAsync({ fingerprint: removing.fingerprint, signal }) : undefined)}
      />
    </Card>
  );
}
