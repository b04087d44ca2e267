import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Allocation } from '../../contract/network';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CopyButton } from '../../components/ui/copy-button';
import { EmptyState } from '../../components/ui/states';
import { QueryList } from '../../components/ui/query-list';
import { PermissionHint, useCan } from '../../lib/permissions';
import { allocationAddress, useServer, useServerRef } from '../servers/api';
import { networkQueries, useCreateAllocation, useDeleteAllocation, useMakePrimary } from './api';
import { AllocationNotes } from './allocation-notes';
import { useT } from './messages';

/** Why "add allocation" cannot be used, or null when it can. */
function addBlockedBy(used: number, limit: number | null, canCreate: boolean) {
  if (!canCreate) return 'network.blocked.permission';
  if (limit === null || limit === 0) return 'network.blocked.none';
  if (used >= limit) return 'network.blocked.limit';
  return null;
}

/** The server's addresses: notes, which one is primary, adding and giving back ports. */
export function NetworkPage() {
  const server = useServer();
  const t = useT();
  const ref = useServerRef();
  const query = useQuery(networkQueries.list(ref));
  const create = useCreateAllocation(ref);
  const primary = useMakePrimary(ref);
  const remove = useDeleteAllocation(ref);
  const [deleting, setDeleting] = useState<Allocation | null>(null);
  const [canCreate, canUpdate, canDelete] = [useCan('allocation.create'), useCan('allocation.update'), useCan('allocation.delete')];

  const allocations = (query.data?.data ?? []).map((a) => a.attributes);
  const limit = server.feature_limits.allocations;
  const blockedBy = addBlockedBy(allocations.length, limit, canCreate);
  const blocked = blockedBy && t(blockedBy);
  const hintId = useId();
  // The row to focus once it is on screen: the one just added, or just made primary (its button
  // goes away, and "add" may go off at the limit; focus would fall to <body>).
  const rows = useRef(new Map<number, HTMLLIElement>());
  const focusRow = useRef<number | null>(null);
  useEffect(() => {
    const row = focusRow.current === null ? undefined : rows.current.get(focusRow.current);
    if (!row) return;
    row.focus();
    focusRow.current = null;
  });

  return (
    <section aria-labelledby="network-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="network-heading" className="text-lg font-semibold text-white">
          {t('network.title')}
        </h2>
        <div className="flex items-center gap-3">
          {query.data && (
            <span className="text-sm text-zinc-400">{t('network.used', { count: allocations.length, limit: limit ?? allocations.length })}</span>
          )}
          <Button
            onClick={() =>
              create.mutate(undefined, {
                onSuccess: (created) => {
                  focusRow.current = created.attributes.id;
                },
              })
            }
            loading={create.isPending}
            disabled={blocked !== null || !query.data}
            title={blocked ?? undefined}
            aria-describedby={canCreate ? undefined : hintId}
          >
            {t('network.add')}
          </Button>
        </div>
      </div>
      {query.data && canCreate && blocked && <p className="text-sm text-zinc-400">{blocked}</p>}
      {/* One line for every network action the subuser lacks (add, and each row's notes, primary and delete). */}
      <PermissionHint id={hintId} permission={['allocation.create', 'allocation.update', 'allocation.delete']} />

      <QueryList query={query} items={query.data ? allocations : undefined} empty={<EmptyState title={t('network.empty')} />}>
        {(shown) => (
          <ul aria-label={t('network.list')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {shown.map((a) => {
              const address = allocationAddress(a);
              return (
                <li
                  key={a.id}
                  ref={(el) => {
                    if (el) rows.current.set(a.id, el);
                    else rows.current.delete(a.id);
                  }}
                  tabIndex={-1}
                  aria-label={address}
                  className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 focus-visible:outline-offset-[-2px]"
                >
                  <div className="min-w-0 flex-1 basis-full sm:basis-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <code className="font-mono text-sm break-all text-zinc-100">{address}</code>
                      <CopyButton value={address} label={t('network.copy')} />
                      {a.is_default && <Badge tone="info">{t('network.primary')}</Badge>}
                    </div>
                    {a.ip_alias && a.ip_alias !== a.ip && <p className="mt-0.5 font-mono text-xs text-zinc-400">{a.ip}</p>}
                    <AllocationNotes allocation={a} editable={canUpdate} />
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    {canUpdate && !a.is_default && (
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => {
                          focusRow.current = a.id;
                          primary.mutate(a.id);
                        }}
                        disabled={primary.isPending}
                      >
                        {t('network.makePrimary')}
                      </Button>
                    )}
                    {canDelete && !a.is_default && (
                      <Button variant="ghost" size="sm" onClick={() => setDeleting(a)} aria-label={t('network.deleteLabel', { address })}>
                        {t('network.delete')}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </QueryList>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={t('network.deleteTitle')}
        description={deleting ? t('network.deleteDescription', { address: allocationAddress(deleting) }) : undefined}
        confirmLabel={t('network.delete')}
        danger
        mutation={remove}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
      />
    </section>
  );
}
