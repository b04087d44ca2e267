import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Node, NodeAllocation } from '../../contract/nodes';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { Pagination } from '../../components/ui/pagination';
import { QueryList } from '../../components/ui/query-list';
import { EmptyState } from '../../components/ui/states';
import { adminNodeQueries } from './api';
import { useT } from './messages';
import { AddAllocationsDialog, AllocationAliasDialog, RemoveAllocationDialog } from './allocation-dialogs';

type Open = { kind: 'add' } | { kind: 'alias' | 'remove'; allocation: NodeAllocation } | null;

/** The node's addresses and ports, a page at a time: add a range, set an alias, remove a free one. */
export function NodeAllocations({ node }: { node: Node }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>(null);
  const query = useQuery(adminNodeQueries.allocations(String(node.id), page));
  const meta = query.data?.meta.pagination;
  const close = (o: boolean) => {
    if (!o) setOpen(null);
  };

  return (
    <Card
      title={meta ? t('adminNodes.allocations.counted', { count: meta.total }) : t('adminNodes.allocations')}
      actions={
        <Button size="sm" onClick={() => setOpen({ kind: 'add' })}>
          {t('adminNodes.allocations.add')}
        </Button>
      }
    >
      <QueryList
        query={query}
        items={query.data?.data}
        empty={<EmptyState title={t('adminNodes.allocations.empty.title')}>{t('adminNodes.allocations.empty.body')}</EmptyState>}
      >
        {(allocations) => (
          <>
            <ul aria-label={t('adminNodes.allocations')} className={cn('divide-y divide-zinc-800/80', query.isPlaceholderData && 'opacity-60')}>
              {allocations.map(({ attributes: a }) => {
                const address = `${a.ip}:${String(a.port)}`;
                return (
                  <li key={a.id} aria-label={address} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2.5 first:pt-0 last:pb-0">
                    <div className="min-w-0 flex-1 basis-40">
                      <p className="font-mono text-sm break-all text-zinc-100">{address}</p>
                      {(a.alias || a.notes) && (
                        <p className="text-xs break-words text-zinc-400">
                          {a.alias && <span>{t('adminNodes.allocations.alias', { alias: a.alias })}</span>}
                          {a.alias && a.notes && ' · '}
                          {a.notes}
                        </p>
                      )}
                    </div>
                    <Badge tone={a.assigned ? 'info' : 'neutral'}>
                      {a.assigned ? t('adminNodes.allocations.assigned') : t('adminNodes.allocations.free')}
                    </Badge>
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('adminNodes.allocations.setAliasOf', { address })}
                        onClick={() => setOpen({ kind: 'alias', allocation: a })}
                      >
                        {t('adminNodes.alias')}
                      </Button>
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('adminNodes.allocations.removeOf', { address })}
                        onClick={() => setOpen({ kind: 'remove', allocation: a })}
                      >
                        {t('adminNodes.allocations.remove')}
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
            {meta && <Pagination meta={meta} onPage={setPage} label={t('adminNodes.allocations.pages')} />}
          </>
        )}
      </QueryList>

      <AddAllocationsDialog node={node} open={open?.kind === 'add'} onOpenChange={(o) => setOpen(o ? { kind: 'add' } : null)} />
      {open?.kind === 'alias' && <AllocationAliasDialog node={node} allocation={open.allocation} open onOpenChange={close} />}
      {open?.kind === 'remove' && <RemoveAllocationDialog node={node} allocation={open.allocation} open onOpenChange={close} />}
    </Card>
  );
}
