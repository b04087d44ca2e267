import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ActivityLog } from '../../contract/activity';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { formatCount, formatDateTime, formatRelativeTime } from '../../lib/format';
import { describeActivity } from '../activity/api';
import { adminOverviewQueries } from './api';
import { NodeHealthList } from './node-health-list';

function actorOf(entry: ActivityLog): string {
  const actor = entry.relationships?.actor;
  return actor?.object === 'user' ? actor.attributes.username : 'System';
}

/** The admin area's landing page: the panel's version, its nodes' health and load, the latest admin actions. */
export function AdminOverviewPage() {
  const query = useQuery(adminOverviewQueries.overview());
  if (query.isPending) return <PageSpinner />;
  // A Pterodactyl panel has no such endpoint: the rest of the admin area works without it.
  if (query.isError && query.error.status === 404)
    return (
      <EmptyState title="No overview from this panel">
        It does not offer Aerie’s admin overview.{' '}
        <Link to="/admin/users" className="font-medium text-sky-400 hover:text-sky-300">
          Manage users
        </Link>
      </EmptyState>
    );
  if (query.isError) return <ErrorState error={query.error} />;
  const { panel_version: version, nodes, activity } = query.data;
  const now = new Date();
  const down = nodes.filter((n) => n.reachable === false).length;

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-5">
        <Card title="Panel">
          <DetailList>
            <DetailItem term="Version">{version}</DetailItem>
            <DetailItem term="Nodes">
              {formatCount(nodes.length, 'node')}
              {down > 0 && <span className="text-red-300"> · {down} not reachable</span>}
            </DetailItem>
            <DetailItem term="Accounts">
              <Link to="/admin/users" className="font-medium text-sky-400 hover:text-sky-300">
                Manage users
              </Link>
            </DetailItem>
          </DetailList>
        </Card>
        <Card title="Nodes">
          {nodes.length === 0 ? (
            <EmptyState title="No nodes yet">The panel makes its own node at its first start.</EmptyState>
          ) : (
            <NodeHealthList nodes={nodes} now={now} />
          )}
        </Card>
      </div>
      <Card title="Recent admin activity">
        {activity.length === 0 ? (
          <EmptyState title="Nothing yet">Changes made in the admin area or through the application API show up here.</EmptyState>
        ) : (
          <ul aria-label="Recent admin activity" className="divide-y divide-zinc-800/80">
            {activity.map(({ attributes: entry }) => (
              <li key={entry.id} className="py-2.5 first:pt-0 last:pb-0">
                <p className="text-sm break-words text-zinc-200">
                  {entry.description?.trim() || describeActivity(entry.event, entry.properties) || entry.event}
                </p>
                <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-zinc-400">
                  <span className="font-medium text-zinc-300">{actorOf(entry)}</span>
                  {entry.is_api && <span>with an API key</span>}
                  <time dateTime={entry.timestamp} title={formatDateTime(entry.timestamp)}>
                    {formatRelativeTime(entry.timestamp, now)}
                  </time>
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
