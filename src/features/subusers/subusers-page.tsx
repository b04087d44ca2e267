import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Subuser } from '../../contract/subusers';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/states';
import { QueryList } from '../../components/ui/query-list';
import { PermissionHint, useCan } from '../../lib/permissions';
import { accountQueries } from '../account/api';
import { useServerRef } from '../servers/api';
import { userQueries } from './api';
import { AddSubuserDialog, DeleteSubuserDialog, EditSubuserDialog, type Added } from './subuser-dialogs';
import { SubuserRow } from './subuser-row';
import { useT } from './messages';

/** The server's subusers: who has access with which permissions; add, edit and delete for those allowed. */
export function SubusersPage() {
  const t = useT();
  const ref = useServerRef();
  const [canCreate, canUpdate, canDelete] = [useCan('user.create'), useCan('user.update'), useCan('user.delete')];
  const query = useQuery(userQueries.list(ref));
  const me = useQuery(accountQueries.me()).data;
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<Added | null>(null);
  const [editing, setEditing] = useState<Subuser | null>(null);
  const [deleting, setDeleting] = useState<Subuser | null>(null);
  const hintId = useId();
  const isSelf = (u: Subuser) => me !== undefined && u.email.toLowerCase() === me.email.toLowerCase();

  return (
    <section aria-labelledby="users-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="users-heading" className="text-lg font-semibold text-white">
          {t('subusers.title')}
        </h2>
        <Button onClick={() => setAdding(true)} disabled={!canCreate} aria-describedby={canCreate ? undefined : hintId}>
          {t('subusers.add')}
        </Button>
      </div>
      {/* One line for every user action the subuser lacks (add, and each row's edit and delete). */}
      <PermissionHint id={hintId} permission={['user.create', 'user.update', 'user.delete']} />

      {added && (
        <div role="status" className="space-y-2 rounded-lg bg-zinc-900/60 p-4 text-sm text-zinc-200 ring-1 ring-zinc-800">
          <p>{t('subusers.added', { email: added.email })}</p>
          <Button variant="ghost" size="sm" onClick={() => setAdded(null)}>
            {t('subusers.dismiss')}
          </Button>
        </div>
      )}

      <QueryList query={query} items={query.data} empty={<EmptyState title={t('subusers.empty.title')}>{t('subusers.empty.body')}</EmptyState>}>
        {(users) => (
          <ul aria-label={t('subusers.title')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {users.map((u) => (
              <SubuserRow
                key={u.uuid}
                user={u}
                self={isSelf(u)}
                canUpdate={canUpdate}
                canDelete={canDelete}
                onEdit={() => setEditing(u)}
                onDelete={() => setDeleting(u)}
              />
            ))}
          </ul>
        )}
      </QueryList>

      <AddSubuserDialog server={ref} open={adding} onOpenChange={setAdding} onAdded={setAdded} />
      <EditSubuserDialog server={ref} user={editing} canUpdate={canUpdate} onClose={() => setEditing(null)} />
      <DeleteSubuserDialog server={ref} user={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
