import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { EmptyState } from '../../components/ui/states';
import { useChoiceParam, useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminServerQueries, SERVER_SEARCH_FIELDS, type ServerSearchField } from './api';
import { useT } from './messages';
import { ServerRows } from './server-rows';

const FIELDS = Object.keys(SERVER_SEARCH_FIELDS) as ServerSearchField[];

/** Every server on every node: searched by one column at a time (`/` focuses the search), paged, each a link to its page. */
export function AdminServersPage() {
  const t = useT();
  const [page, setPage] = usePageParam();
  const [by, setBy] = useChoiceParam('by', FIELDS, 'name');
  const search = useListSearch();
  const query = useQuery(adminServerQueries.list({ page, search: search.value, by }));
  const choices = Object.fromEntries(FIELDS.map((f) => [f, t(SERVER_SEARCH_FIELDS[f].name)])) as Record<ServerSearchField, string>;

  return (
    <ListPage
      headingId="admin-servers-heading"
      title={t('adminServers.title')}
      noun={(count) => t('adminServers.listCount', { count })}
      action={
        <Link
          to="/admin/servers/new"
          className="inline-flex min-h-10 items-center rounded-md bg-sky-600 px-4 text-sm font-medium text-always-white hover:bg-sky-500 focus-visible:ring-2 focus-visible:ring-sky-400 focus-visible:outline-none"
        >
          {t('adminServers.create')}
        </Link>
      }
      search={<ListSearch search={search} label={t(SERVER_SEARCH_FIELDS[by].search)} field={{ value: by, choices, onChange: setBy }} />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title={t('adminServers.empty.title')}>{t('adminServers.empty.body')}</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminServers.pages') }}
    >
      {(servers) => <ServerRows servers={servers.map((s) => s.attributes)} label={t('adminServers.title')} busy={query.isPlaceholderData} />}
    </ListPage>
  );
}
