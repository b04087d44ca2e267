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
import { useLocale } from '../../lib/i18n/catalog';
import { adminApiKeyQueries, useRevokeApplicationKey } from './api';
import { KeyCreateDialog } from './key-create-dialog';
import { describePermissions } from './key-permissions';
import { T, useT } from './messages';

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
  const t = useT();
  const locale = useLocale();

  return (
    <ListPage
      headingId="admin-keys-heading"
      title={t('adminApiKeys.title')}
      description={<T k="adminApiKeys.description" components={{ 0: <code className="text-zinc-200" /> }} />}
      action={
        <Button ref={newKeyButton} onClick={() => setCreating(true)}>
          {t('adminApiKeys.new')}
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
      empty={<EmptyState title={t('adminApiKeys.empty')}>{t('adminApiKeys.emptyText')}</EmptyState>}
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
            title={t('adminApiKeys.revoke.title')}
            description={revoking ? t('adminApiKeys.revoke.text', { description: revoking.description, identifier: revoking.identifier }) : undefined}
            confirmLabel={t('adminApiKeys.revoke.action')}
            danger
            mutation={revoke}
            onConfirm={(signal) => (revoking ? revoke.mutateAsync({ identifier: revoking.identifier, signal }) : undefined)}
          />
        </>
      }
    >
      {(keys) => (
        <RowList label={t('adminApiKeys.list')}>
          {keys.map((k) => (
            <ListRow
              key={k.identifier}
              title={k.description}
              details={
                <>
                  <p className="font-mono text-xs break-all text-zinc-400">{k.identifier}</p>
                  <p className="text-xs text-zinc-300">{describePermissions(k.permissions)}</p>
                  <p className="text-xs text-zinc-400">
                    {k.allowed_ips.length ? t('adminApiKeys.onlyFrom', { ips: k.allowed_ips.join(', ') }) : t('adminApiKeys.anyAddress')} ·{' '}
                    {k.last_used_at ? (
                      <T
                        k="adminApiKeys.lastUsed"
                        values={{ when: formatRelativeTime(k.last_used_at, now, locale) }}
                        components={{ 0: <time dateTime={k.last_used_at} /> }}
                      />
                    ) : (
                      t('adminApiKeys.neverUsed')
                    )}{' '}
                    ·{' '}
                    <T
                      k="adminApiKeys.created"
                      values={{ when: formatRelativeTime(k.created_at, now, locale) }}
                      components={{ 0: <time dateTime={k.created_at} title={formatDateTime(k.created_at, locale)} /> }}
                    />
                  </p>
                </>
              }
            >
              <RowActions of={k.description} actions={[{ label: t('adminApiKeys.revoke.action'), onClick: () => setRevoking(k) }]} />
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
