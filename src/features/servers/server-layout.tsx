import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { matchPath, useLocation, useParams } from 'react-router';
import { BoundedOutlet } from '../../app/bounded-outlet';
import { RequireServerPermission } from '../../app/require-server-permission';
import { SERVER_PAGES, type ServerPage } from '../../app/server-routes';
import { ALL_PERMISSIONS_MARKER } from '../../contract/permissions';
import type { Server } from '../../contract/servers';
import { ApiError } from '../../lib/http';
import { flattenCatalogue, ServerPermissionsProvider } from '../../lib/permissions';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { accountQueries } from '../account/api';
import { memberPermissions, serverQueries } from './api';
import { ServerHeader } from './server-header';
import { ServerNav } from './server-nav';
import { serverConditions } from './server-state';
import { ServerUnavailable } from './server-unavailable';
import { NODE_PAGES, NodeDownNotice, useNodeDown } from './node-status';
import { useTransferProgress } from './transfer-progress';
import { DocumentTitle, pageTitle } from '../../lib/panel-name';
import { usePageLabel } from '../../app/page-label';

/**
 * The frame of every /server/:id page: loads the server once (pages read it from the same query),
 * provides the caller's permissions, and shows header, state banner and the allowed pages.
 */
export function ServerLayout() {
  const id = useParams().id ?? '';
  const query = useQuery(serverQueries.detail(id));
  const page = useCurrentPage();
  const label = usePageLabel();
  const pageLabel = page && page.path !== '' ? label(page) : null;
  const meta = query.data?.meta;
  const permissions = useMemo<readonly string[]>(() => (meta ? memberPermissions(meta) : []), [meta]);
  // Only a subuser sees permission hints, so only a subuser loads what they say.
  const subuser = meta !== undefined && !permissions.includes(ALL_PERMISSIONS_MARKER);
  const catalogue = useQuery({ ...accountQueries.permissionCatalogue(), enabled: subuser });
  const descriptions = useMemo(() => (catalogue.data ? flattenCatalogue(catalogue.data) : undefined), [catalogue.data]);

  const loaded = query.data?.attributes;
  // Only a server the panel would act on: a blocked one (installing, suspended…) answers 409, not its node.
  const nodeDown = useNodeDown(loaded, loaded !== undefined && !serverConditions(loaded).some((c) => c.blocking));
  // The panel opens the socket of a moving server to admins only (`admin.websocket.transfer`); others are not made to ask.
  const transferNote = useTransferProgress(
    { uuid: loaded?.uuid ?? '', identifier: loaded?.identifier ?? '' },
    loaded?.is_transferring === true && permissions.includes(TRANSFER_PERMISSION),
  );

  if (query.isPending) return <PageSpinner />;
  // A failed background refetch keeps the server on screen (the query cache toasts the error),
  // unless it says the access itself ended (removed as a subuser): then nothing stale stays shown.
  if (query.data === undefined || accessEnded(query.error)) return <ErrorState error={query.error} level={1} />;

  const server = query.data.attributes;
  const blocking = serverConditions(server).find((c) => c.blocking) ?? null;
  const adminView = !query.data.meta.is_server_owner && !server.server_owner && permissions.includes(ALL_PERMISSIONS_MARKER);
  return (
    <ServerPermissionsProvider permissions={permissions} descriptions={descriptions}>
      {!page?.titledByPage && <DocumentTitle>{pageLabel ? pageTitle(pageLabel, server.name) : pageTitle(server.name)}</DocumentTitle>}
      <div className="space-y-5">
        <ServerHeader server={server} adminView={adminView} nodeDown={nodeDown} transferNote={transferNote} />
        <ServerNav serverId={id} permissions={permissions} />
        <RequireServerPermission permission={page?.permission ?? null}>
          {blocking && page && !worksUnavailable(page, server) ? (
            <ServerUnavailable page={label(page)} condition={blocking} />
          ) : nodeDown && page && NODE_PAGES.includes(page.path) ? (
            <NodeDownNotice page={label(page)} server={server} />
          ) : (
            <BoundedOutlet />
          )}
        </RequireServerPermission>
      </div>
    </ServerPermissionsProvider>
  );
}

const TRANSFER_PERMISSION = 'admin.websocket.transfer';

const worksUnavailable = (page: ServerPage, server: Server) =>
  typeof page.worksUnavailable === 'function' ? page.worksUnavailable(server) : page.worksUnavailable === true;

const accessEnded = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

/** The server page being shown: its label titles the document, its permission guards it. */
function useCurrentPage(): ServerPage | undefined {
  const { pathname } = useLocation();
  return SERVER_PAGES.find((p) => matchPath({ path: p.path ? `/server/:id/${p.path}` : '/server/:id', end: true }, pathname));
}
