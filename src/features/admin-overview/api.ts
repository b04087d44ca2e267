import { queryOptions } from '@tanstack/react-query';
import { adminOverviewEndpoints, type AdminOverview } from '../../contract/admin-overview';
import { call } from '../../lib/http';

/** The admin area's queries all sit under ['admin'], apart from any server's or the account's. */
export const adminOverviewQueries = {
  all: () => ['admin', 'overview'] as const,
  overview: () =>
    queryOptions({
      queryKey: adminOverviewQueries.all(),
      queryFn: async ({ signal }): Promise<AdminOverview> => (await call(adminOverviewEndpoints.overview, { signal })).attributes,
      // Node health changes on the panel's 30 s checks: as often is enough here, unless a node is
      // not known to answer (just created or started), which the panel asks again on each look.
      refetchInterval: (query) => (query.state.data?.nodes.some((node) => node.reachable !== true) ? 5_000 : 30_000),
    }),
};

/** The nodes' health and load as a list, for the admin area's nodes page. */
export { NodeHealthList, type HealthNode } from './node-health-list';
