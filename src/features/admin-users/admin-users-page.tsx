import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowList } from '../../components/ui/row-list';
import { EmptyState } from '../../components/ui/states';
import { useChoiceParam, useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminUserQueries, type UserSearchField } from './api';
import { useT } from './messages';
import { UserFormDialog } from './user-form-dialog';

const FIELDS: UserSearchField[] = ['email', 'username'];

/**
 * The panel's accounts: searched by e-mail or username (`?q=`, `?by=`), a page at a time (`?page=`),
 * all in the URL; each row links to the user's page. "/" jumps to the search box.
 */
export function AdminUsersPage() {
  const navigate = useNavigate();
  const t = useT();
  const searchFields: Record<UserSearchField, string> = { email: t('adminUsers.email'), username: t('adminUsers.form.username') };
  const [page, setPage] = usePageParam();
  const [by, setBy] = useChoiceParam('by', FIELDS, 'email');
  const search = useListSearch();
  const [creating, setCreating] = useState(false);
  const query = useQuery(adminUserQueries.list({ page, search: search.value, by }));

  return (
    <ListPage
      headingId="admin-users-heading"
      title={t('adminUsers.title')}
      noun="user"
      action={<Button onClick={() => setCreating(true)}>{t('adminUsers.create')}</Button>}
      search={
        <ListSearch
          search={search}
          label={t(by === 'email' ? 'adminUsers.searchEmail' : 'adminUsers.searchUsername')}
          field={{ value: by, choices: searchFields, onChange: setBy }}
        />
      }
      query={query}
      items={query.data?.data}
      empty={<EmptyState title={t('adminUsers.empty')}>{t('adminUsers.emptyText')}</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminUsers.pages') }}
      dialogs={
        <UserFormDialog
          user={null}
          open={creating}
          onOpenChange={setCreating}
          onCreated={(u, invited) => void navigate(`/admin/users/${u.id}`, { state: { created: invited ? 'invited' : 'created' } })}
        />
      }
    >
      {(users) => (
        <RowList label={t('adminUsers.title')} busy={query.isPlaceholderData}>
          {users.map(({ attributes: u }) => (
            <ListRow
              key={u.uuid}
              to={`/admin/users/${u.id}`}
              title={u.username}
              details={<p className="text-sm break-all text-zinc-400">{u.email}</p>}
            >
              <div className="flex flex-wrap gap-2">
                {u.root_admin && <Badge tone="info">{t('adminUsers.rootAdmin')}</Badge>}
                <Badge tone={u['2fa'] ? 'success' : 'neutral'}>{t(u['2fa'] ? 'adminUsers.twoFactorOn' : 'adminUsers.twoFactorOff')}</Badge>
              </div>
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
