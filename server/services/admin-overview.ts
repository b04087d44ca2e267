import packageJson from '../../package.json' with { type: 'json' };
import type { AdminActivityQuery } from '../../src/contract/admin-activity';
import { ADMIN_OVERVIEW_ACTIVITY, type AdminOverview, type OverviewNode } from '../../src/contract/admin-overview';
import type { AppDeps } from '../deps';
import { activity, nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { activityResource, type ActivityResource, type ActivityViewer } from './activity-view';

/*
 * What the admin area opens on. Node health is what the panel's monitor last heard (the same
 * checks `node:list` makes), never a fresh round awaited: the page must not wait up to 3 s per
 * dead node.
 */

export const PANEL_VERSION: string = packageJson.version;

function nodeView(deps: AppDeps, node: NodeRow, used: { servers: number; memory: number; disk: number } | undefined): OverviewNode {
  const local = node.daemon_base_url === null;
  const health = local ? undefined : deps.nodeHealth?.get(node.id);
  return {
    id: node.id,
    uuid: node.uuid,
    name: node.name,
    local,
    // The panel's own node answers whenever this answer is being written.
    reachable: local ? true : (health?.reachable ?? null),
    version: local ? PANEL_VERSION : (health?.version ?? null),
    reason: health?.reason ?? null,
    last_seen: health?.last_seen ?? null,
    servers: used?.servers ?? 0,
    memory: { allocated: used?.memory ?? 0, total: node.memory },
    disk: { allocated: used?.disk ?? 0, total: node.disk },
  };
}

export async function adminOverview(deps: AppDeps, viewer: ActivityViewer): Promise<AdminOverview> {
  const [rows, used, latest] = await Promise.all([
    nodes.all(deps.db),
    nodes.usage(deps.db),
    activity.latestByPrefix(deps.db, 'admin:', ADMIN_OVERVIEW_ACTIVITY),
  ]);
  const views = rows.map((node) => nodeView(deps, node, used.get(node.id)));
  // A node not known to answer is asked again soon, so the next look (the page polls faster
  // meanwhile) tells whether the node just started answers.
  if (views.some((node) => node.reachable !== true)) deps.nodeHealth?.refresh();
  return {
    panel_version: PANEL_VERSION,
    nodes: views,
    activity: latest.map((row) => activityResource(row, viewer, true)),
  };
}

/** The admin activity log's page: every `admin:` entry (the overview shows the latest few), with its actor. */
export async function adminActivityPage(
  deps: AppDeps,
  viewer: ActivityViewer,
  query: AdminActivityQuery,
): Promise<{ data: ActivityResource[]; total: number }> {
  const { rows, total } = await activity.pageByPrefix(deps.db, 'admin:', {
    page: query.page,
    per_page: query.per_page,
    event: query['filter[event]'],
    oldestFirst: query.sort === 'timestamp',
  });
  return { data: rows.map((row) => activityResource(row, viewer, true)), total };
}
