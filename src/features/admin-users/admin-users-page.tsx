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
import { UserFormDialog } from './user-form-dialog';

const SEARCH_FIELDS: Record<UserSearchField, string> = { email: 'E-mail', username: 'Username' };
const FIELDS = Object.keys(SEARCH_FIELDS) as UserSearchField[];

/**
 * The panel's accounts: searched by e-mail or username (`?q=`, `?by=`), a page at a time (`?page=`),
 * all in the URL; each row links to the user's page. "/" jumps to the search box.
 */
export function AdminUsersPage() {
  const navigate = useNavigate();
  const [page, setPage] = usePageParam();
  const [by, setBy] = useChoiceParam('by', FIELDS, 'email');
  const search = useListSearch();
  const [creating, setCreating] = useState(false);
  const query = useQuery(adminUserQueries.list({ page, search: search.value, by }));

  return (
    <ListPage
      headingId="admin-users-heading"
      title="Users"
      noun="user"
      action={<Button onClick={() => setCreating(true)}>Create user</Button>}
      search={
        <ListSearch
          search={search}
          label={by === 'email' ? 'Search by e-mail' : 'Search by username'}
          field={{ value: by, choices: SEARCH_FIELDS, onChange: setBy }}
        />
      }
      query={query}
      items={query.data?.data}
      empty={<EmptyState title="No users yet">Create one, or let your billing system do it through the application API.</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: 'User list pages' }}
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
        <RowList label="Users" busy={query.isPlaceholderData}>
          {users.map(({ attributes: u }) => (
            <ListRow
              key={u.uuid}
              to={`/admin/users/${u.id}`}
              title={u.username}
              details={<p className="text-sm break-all text-zinc-400">{u.email}</p>}
            >
              <div className="flex flex-wrap gap-2">
                {u.root_admin && <Badge tone="info">Root admin</Badge>}
                <Badge tone={u['2fa'] ? 'success' : 'neutral'}>{u['2fa'] ? 'Two-factor on' : 'Two-factor off'}</Badge>
              </div>
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
