import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { matchPath, useLocation, useParams } from 'react-router';
import { BoundedOutlet } from '../../app/bounded-outlet';
import { SERVER_PAGES } from '../../app/server-routes';
import { ALL_PERMISSIONS_MARKER } from '../../contract/permissions';
import { ApiError } from '../../lib/http';
import { ServerPermissionsProvider } from '../../lib/permissions';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { serverQueries } from './api';
import { ServerHeader } from './server-header';
import { ServerNav } from './server-nav';

/**
 * The frame of every /server/:id page: loads the server once (pages read it from the same query),
 * provides the caller's permissions, and shows header, state banner and the allowed pages.
 */
export function ServerLayout() {
  const id = useParams().id ?? '';
  const query = useQuery(serverQueries.detail(id));
  const pageLabel = useCurrentPageLabel();
  const meta = query.data?.meta;
  // The reference SPA's rule: owners hold everything.
  const permissions = useMemo<readonly string[]>(
    () => (meta ? (meta.is_server_owner ? [ALL_PERMISSIONS_MARKER] : meta.user_permissions) : []),
    [meta],
  );

  if (query.isPending) return <PageSpinner />;
  // A failed background refetch keeps the server on screen (the query cache toasts the error),
  // unless it says the access itself ended (removed as a subuser): then nothing stale stays shown.
  if (query.data === undefined || accessEnded(query.error)) return <ErrorState error={query.error} level={1} />;

  const server = query.data.attributes;
  const adminView = !query.data.meta.is_server_owner && !server.server_owner && permissions.includes(ALL_PERMISSIONS_MARKER);
  return (
    <ServerPermissionsProvider permissions={permissions}>
      <title>{`${pageLabel ? `${pageLabel} · ` : ''}${server.name} · Aerie`}</title>
      <div className="space-y-5">
        <ServerHeader server={server} adminView={adminView} />
        <ServerNav serverId={id} permissions={permissions} />
        <BoundedOutlet />
      </div>
    </ServerPermissionsProvider>
  );
}

const accessEnded = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

/** The label of the server page being shown (for the document title); none for the overview. */
function useCurrentPageLabel(): string | null {
  const { pathname } = useLocation();
  const page = SERVER_PAGES.find((p) => p.path !== '' && matchPath({ path: `/server/:id/${p.path}`, end: true }, pathname));
  return page?.label ?? null;
}
