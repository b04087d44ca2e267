import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApplicationKey } from '../../contract/admin-api-keys';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { OneTimeSecret } from '../../components/ui/one-time-secret';
import { QueryList } from '../../components/ui/query-list';
import { EmptyState } from '../../components/ui/states';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { adminApiKeyQueries, useRevokeApplicationKey } from './api';
import { KeyCreateDialog } from './key-create-dialog';
import { describePermissions } from './key-permissions';

/** Your application keys: create (the secret shown once), see what each may do and when it was last used, revoke. */
export function AdminApiKeysPage() {
  const query = useQuery(adminApiKeyQueries.list());
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApplicationKey | null>(null);
  const revoke = useRevokeApplicationKey();
  const newKeyButton = useRef<HTMLButtonElement>(null);
  const now = new Date();

  return (
    <section aria-labelledby="admin-keys-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="admin-keys-heading" className="text-lg font-semibold text-white">
            Application API keys
          </h2>
          <p className="text-sm text-zinc-400">
            Keys for <code className="text-zinc-200">/api/application</code>, as billing systems use them. Only your own keys are listed.
          </p>
        </div>
        <Button ref={newKeyButton} onClick={() => setCreating(true)}>
          New key
        </Button>
      </div>

      {secret && (
        <OneTimeSecret
          secret={secret}
          testId="application-key-secret"
          onDone={() => {
            setSecret(null);
            newKeyButton.current?.focus();
          }}
        />
      )}

      <QueryList
        query={query}
        items={query.data}
        empty={<EmptyState title="No application keys yet">Create one for your billing system.</EmptyState>}
      >
        {(keys) => (
          <ul aria-label="Application keys" className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {keys.map((k) => (
              <li key={k.identifier} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 space-y-1 text-sm">
                  <p className="font-medium break-words text-zinc-100">{k.description}</p>
                  <p className="font-mono text-xs break-all text-zinc-400">{k.identifier}</p>
                  <p className="text-xs text-zinc-300">{describePermissions(k.permissions)}</p>
                  <p className="text-xs text-zinc-400">
                    {k.allowed_ips.length ? `Only from ${k.allowed_ips.join(', ')}` : 'From any address'} · Last used{' '}
                    {k.last_used_at ? <time dateTime={k.last_used_at}>{formatRelativeTime(k.last_used_at, now)}</time> : 'never'} · Created{' '}
                    <time dateTime={k.created_at} title={formatDateTime(k.created_at)}>
                      {formatRelativeTime(k.created_at, now)}
                    </time>
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  className="self-start sm:self-auto"
                  onClick={() => setRevoking(k)}
                  aria-label={`Revoke ${k.description}`}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryList>

      <KeyCreateDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(key, token) => setSecret(token.startsWith('ptla_') ? token : `${key.identifier}${token}`)}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => {
          if (!o) setRevoking(null);
        }}
        title="Revoke application key"
        description={revoking ? `“${revoking.description}” (${revoking.identifier}) stops working at once, for everything that uses it.` : undefined}
        confirmLabel="Revoke"
        danger
        mutation={revoke}
        onConfirm={(signal) => (revoking ? revoke.mutateAsync({ identifier: revoking.identifier, signal }) : undefined)}
      />
    </section>
  );
}
