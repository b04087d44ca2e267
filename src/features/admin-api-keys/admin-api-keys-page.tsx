import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApplicationKey } from '../../contract/admin-api-keys';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { OneTimeSecret } from '../../components/ui/one-time-secret';
import { ListPage } from '../../components/ui/list-page';
import { ListRow, RowActions, RowList } from '../../components/ui/row-list';
import { EmptyState } from '../../components/ui/states';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { adminApiKeyQueries, useRevokeApplicationKey } from './api';
import { KeyCreateDialog } from './key-create-dialog';
import { describePermissions } from './key-permissions';

/**
 * Your application keys: create (the secret shown once), see what each may do and when it was last
 * used, revoke. At most 25, so one page with no search, as the reference's key lists.
 */
export function AdminApiKeysPage() {
  const query = useQuery(adminApiKeyQueries.list());
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApplicationKey | null>(null);
  const revoke = useRevokeApplicationKey();
  const newKeyButton = useRef<HTMLButtonElement>(null);
  const now = new Date();

  return (
    <ListPage
      headingId="admin-keys-heading"
      title="Application API keys"
      description={
        <>
          Keys for <code className="text-zinc-200">/api/application</code>, as billing systems use them. Only your own keys are listed.
        </>
      }
      action={
        <Button ref={newKeyButton} onClick={() => setCreating(true)}>
          New key
        </Button>
      }
      notice={
        secret && (
          <OneTimeSecret
            secret={secret}
            testId="application-key-secret"
            onDone={() => {
              setSecret(null);
              newKeyButton.current?.focus();
            }}
          />
        )
      }
      query={query}
      items={query.data}
      empty={<EmptyState title="No application keys yet">Create one for your billing system.</EmptyState>}
      dialogs={
        <>
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
            description={
              revoking ? `“${revoking.description}” (${revoking.identifier}) stops working at once, for everything that uses it.` : undefined
            }
            confirmLabel="Revoke"
            danger
            mutation={revoke}
            onConfirm={(signal) => (revoking ? revoke.mutateAsync({ identifier: revoking.identifier, signal }) : undefined)}
          />
        </>
      }
    >
      {(keys) => (
        <RowList label="Application keys">
          {keys.map((k) => (
            <ListRow
              key={k.identifier}
              title={k.description}
              details={
                <>
                  <p className="font-mono text-xs break-all text-zinc-400">{k.identifier}</p>
                  <p className="text-xs text-zinc-300">{describePermissions(k.permissions)}</p>
                  <p className="text-xs text-zinc-400">
                    {k.allowed_ips.length ? `Only from ${k.allowed_ips.join(', ')}` : 'From any address'} · Last used{' '}
                    {k.last_used_at ? <time dateTime={k.last_used_at}>{formatRelativeTime(k.last_used_at, now)}</time> : 'never'} · Created{' '}
                    <time dateTime={k.created_at} title={formatDateTime(k.created_at)}>
                      {formatRelativeTime(k.created_at, now)}
                    </time>
                  </p>
                </>
              }
            >
              <RowActions of={k.description} actions={[{ label: 'Revoke', onClick: () => setRevoking(k) }]} />
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
