import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ServerDatabase } from '../../contract/databases';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/states';
import { QueryList } from '../../components/ui/query-list';
import { PermissionHint, useCan } from '../../lib/permissions';
import { accountQueries } from '../account/api';
import { useServer, useServerRef } from '../servers/api';
import { databaseQueries, isNoHost, passwordOf, useRotatePassword } from './api';
import { CreateDatabaseDialog } from './create-database-dialog';
import { DatabaseRow } from './database-row';
import { DeleteDatabaseDialog } from './delete-database-dialog';
import { NoHostNotice } from './no-host-notice';
import { useT } from './messages';

/** Why "new database" cannot be used, or null when it can. A null limit is no limit, as on the panel. */
function createBlockedBy(used: number, limit: number | null, canCreate: boolean, noHost: boolean) {
  if (!canCreate) return 'databases.blocked.permission';
  if (limit === 0) return 'databases.blocked.none';
  if (limit !== null && used >= limit) return 'databases.blocked.limit';
  if (noHost) return 'databases.blocked.noHost';
  return null;
}

/** The server's databases: what to connect with, passwords for those allowed, create, rotate, delete. */
export function DatabasesPage() {
  const server = useServer();
  const t = useT();
  const ref = useServerRef();
  const [canCreate, canRotate, canDelete, canViewPassword] = [
    useCan('database.create'),
    useCan('database.update'),
    useCan('database.delete'),
    useCan('database.view_password'),
  ];
  const query = useQuery(databaseQueries.list(ref, canViewPassword));
  const admin = useQuery(accountQueries.me()).data?.admin ?? false;
  const rotate = useRotatePassword(ref);
  const [creating, setCreating] = useState(false);
  // This panel's list says when it has no host; with a reference panel, a create refused for want of one does.
  const [refusedForHost, setNoHost] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const [rotating, setRotating] = useState<ServerDatabase | null>(null);
  const [rotated, setRotated] = useState<{ id: string; shown: boolean } | null>(null);
  const [deleting, setDeleting] = useState<ServerDatabase | null>(null);
  const hintId = useId();

  const noHost = refusedForHost || query.data?.meta?.has_database_host === false;
  const databases = (query.data?.data ?? []).map((d) => d.attributes);
  const limit = server.feature_limits.databases;
  const blockedBy = createBlockedBy(databases.length, limit, canCreate, noHost);
  const blocked = blockedBy && t(blockedBy);
  const toggle = (set: ReadonlySet<string>, id: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };
  const open = (id: string, reveal: boolean) => {
    setExpanded((s) => toggle(s, id, true));
    if (reveal) setRevealed((s) => toggle(s, id, true));
  };

  return (
    <section aria-labelledby="databases-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="databases-heading" className="text-lg font-semibold text-white">
          {t('databases.title')}
        </h2>
        <div className="flex items-center gap-3">
          {query.data && (
            <span className="text-sm text-zinc-400">
              {limit === null ? t('databases.used', { count: databases.length }) : t('databases.usedOf', { count: databases.length, limit })}
            </span>
          )}
          <Button
            onClick={() => setCreating(true)}
            disabled={blocked !== null || !query.data}
            title={blocked ?? undefined}
            aria-describedby={canCreate ? undefined : hintId}
          >
            {t('databases.new')}
          </Button>
        </div>
      </div>
      {query.data && canCreate && blocked && !noHost && <p className="text-sm text-zinc-400">{blocked}</p>}
      {/* One line for every database action the subuser lacks (create, and each row's rotate, delete and password). */}
      <PermissionHint id={hintId} permission={['database.create', 'database.update', 'database.delete', 'database.view_password']} />
      {noHost && <NoHostNotice admin={admin} />}

      <QueryList
        query={query}
        items={query.data ? databases : undefined}
        empty={
          <EmptyState title={t('databases.empty.title')}>
            {/* Not "create one" when the button beside it is off (no host, no permission, a limit of 0). */}
            {blocked === null ? t('databases.empty.detailCreate') : t('databases.empty.detail')}
          </EmptyState>
        }
      >
        {(shown) => (
          <ul aria-label={t('databases.title')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {shown.map((d) => (
              <DatabaseRow
                key={d.id}
                database={d}
                canViewPassword={canViewPassword}
                canRotate={canRotate}
                canDelete={canDelete}
                expanded={expanded.has(d.id)}
                revealed={revealed.has(d.id)}
                onToggle={() => setExpanded((s) => toggle(s, d.id, !s.has(d.id)))}
                onReveal={(on) => setRevealed((s) => toggle(s, d.id, on))}
                onRotate={() => setRotating(d)}
                onDelete={() => setDeleting(d)}
                notice={rotated?.id === d.id ? (rotated.shown ? t('databases.rotated.shown') : t('databases.rotated.hidden')) : null}
              />
            ))}
          </ul>
        )}
      </QueryList>

      <CreateDatabaseDialog
        server={ref}
        open={creating}
        onOpenChange={setCreating}
        onCreated={(d) => open(d.id, false)}
        onError={(error) => {
          if (isNoHost(error)) setNoHost(true);
        }}
      />
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(o) => {
          if (!o) setRotating(null);
        }}
        title={t('databases.rotate')}
        description={rotating ? t('databases.rotate.description', { name: rotating.name }) : undefined}
        confirmLabel={t('databases.rotate.confirm')}
        mutation={rotate}
        onConfirm={async (signal) => {
          if (!rotating) return;
          const result = await rotate.mutateAsync({ database: rotating, signal });
          const shown = canViewPassword && passwordOf(result.attributes) !== null;
          setRotated({ id: result.attributes.id, shown });
          open(result.attributes.id, shown);
        }}
      />
      <DeleteDatabaseDialog server={ref} database={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
