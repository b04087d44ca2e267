import { useMemo, useRef, useState } from 'react';
import { T, useT } from './messages';
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiKeyCreateSchema, type ApiKey } from '../../contract/account';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { OneTimeSecret } from '../../components/ui/one-time-secret';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { EmptyState } from '../../components/ui/states';
import { QueryList } from '../../components/ui/query-list';
import { useContractForm } from '../../lib/use-contract-form';
import { accountQueries, useCreateApiKey, useDeleteApiKey } from './api';
import { KeyList } from './key-list';
import { RelativeTime } from './relative-time';

// The dialog's form: allowed IPs typed one per line, sent as the contract's list.
const formSchema = z.object({
  description: apiKeyCreateSchema.shape.description,
  allowed_ips: z.pipe(
    z.string(),
    z.transform((v) => v.split(/\s+/).filter(Boolean)),
  ),
});
const defaults = { description: '', allowed_ips: '' };

/** Client API keys: create (the secret is shown once), list, delete. */
export function ApiKeysSection() {
  const query = useQuery(accountQueries.apiKeys());
  const now = useMemo(() => new Date(query.dataUpdatedAt || Date.now()), [query.dataUpdatedAt]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  const form = useContractForm(formSchema, defaults);
  const { errors } = form.formState;
  const newKeyButton = useRef<HTMLButtonElement>(null);
  const t = useT();

  return (
    <Card
      title={t('account.section.apiKeys')}
      actions={
        <Button ref={newKeyButton} size="sm" onClick={() => setCreating(true)}>
          {t('account.apiKeys.new')}
        </Button>
      }
    >
      <p className="mb-4 text-sm text-zinc-400">
        <T k="account.apiKeys.intro" values={{ header: 'Authorization: Bearer <key>' }} components={{ 0: <code className="text-zinc-200" /> }} />
      </p>
      {secret && (
        <OneTimeSecret
          secret={secret}
          testId="api-key-secret"
          className="mb-4"
          onDone={() => {
            setSecret(null);
            newKeyButton.current?.focus();
          }}
        />
      )}
      <QueryList query={query} items={query.data} empty={<EmptyState title={t('account.apiKeys.empty')} />}>
        {(keys) => (
          <KeyList
            label={t('account.section.apiKeys')}
            action={t('account.delete')}
            onAction={(identifier) => setDeleting(keys.find((k) => k.identifier === identifier) ?? null)}
            items={keys.map((k) => ({
              key: k.identifier,
              title: k.description,
              id: k.identifier,
              detail: (
                <>
                  {k.allowed_ips.length ? t('account.apiKeys.onlyFrom', { ips: k.allowed_ips.join(', ') }) : t('account.apiKeys.anyAddress')} ·{' '}
                  {k.last_used_at ? (
                    <T k="account.apiKeys.lastUsed" values={{ time: <RelativeTime value={k.last_used_at} now={now} /> }} />
                  ) : (
                    t('account.apiKeys.neverUsed')
                  )}{' '}
                  · <T k="account.apiKeys.created" values={{ time: <RelativeTime value={k.created_at} now={now} /> }} />
                </>
              ),
            }))}
          />
        )}
      </QueryList>

      <MutationDialog
        open={creating}
        onOpenChange={setCreating}
        title={t('account.apiKeys.new')}
        submitLabel={t('account.apiKeys.create')}
        form={form}
        defaultValues={defaults}
        mutation={create}
        errorFields={{ fields: ['description', 'allowed_ips'] }}
        onSubmit={async (values, signal) => {
          setSecret(null);
          const created = await create.mutateAsync({ ...values, signal });
          const { identifier } = created.attributes;
          const token = created.meta.secret_token;
          // This panel sends the whole key; the reference panel the part after the identifier.
          setSecret(token.startsWith(identifier) || token.includes(`_${identifier}`) ? token : `${identifier}${token}`);
        }}
      >
        <TextField
          label={t('account.apiKeys.description')}
          autoComplete="off"
          error={errors.description?.message}
          {...form.register('description')}
        />
        <TextAreaField
          label={t('account.apiKeys.allowedIps')}
          rows={3}
          hint={t('account.apiKeys.allowedIpsHint')}
          error={errors.allowed_ips?.message}
          {...form.register('allowed_ips')}
        />
      </MutationDialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title={t('account.apiKeys.delete')}
        description={deleting ? t('account.apiKeys.deleteDescription', { name: deleting.description, id: deleting.identifier }) : undefined}
        confirmLabel={t('account.delete')}
        danger
        mutation={remove}
        onConfirm={(signal) => (deleting ? remove.mutateAsync({ identifier: deleting.identifier, signal }) : undefined)}
      />
    </Card>
  );
}
