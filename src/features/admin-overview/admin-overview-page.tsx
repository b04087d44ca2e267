import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ActivityLog } from '../../contract/activity';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { describeActivity } from '../activity/api';
import { adminOverviewQueries } from './api';
import { useT } from './messages';
import { NodeHealthList } from './node-health-list';

function actorOf(entry: ActivityLog): string | null {
  const actor = entry.relationships?.actor;
  return actor?.object === 'user' ? actor.attributes.username : null;
}

/** The admin area's landing page: the panel's version, its nodes' health and load, the latest admin actions. */
export function AdminOverviewPage() {
  const query = useQuery(adminOverviewQueries.overview());
  const t = useT();
  const locale = useLocale();
  if (query.isPending) return <PageSpinner />;
  // A Pterodactyl panel has no such endpoint: the rest of the admin area works without it.
  if (query.isError && query.error.status === 404)
    return (
      <EmptyState title={t('adminOverview.unsupported')}>
        {t('adminOverview.unsupportedText')}{' '}
        <Link to="/admin/users" className="font-medium text-sky-400 hover:text-sky-300">
          {t('adminOverview.manageUsers')}
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
        <Card title={t('adminOverview.panel')}>
          <DetailList>
            <DetailItem term={t('adminOverview.version')}>{version}</DetailItem>
            <DetailItem term={t('adminOverview.nodes')}>
              {t('adminOverview.nodeCount', { count: nodes.length })}
              {down > 0 && <span className="text-red-300"> · {t('adminOverview.down', { count: down })}</span>}
            </DetailItem>
            <DetailItem term={t('adminOverview.accounts')}>
              <Link to="/admin/users" className="font-medium text-sky-400 hover:text-sky-300">
                {t('adminOverview.manageUsers')}
              </Link>
            </DetailItem>
          </DetailList>
        </Card>
        <Card title={t('adminOverview.nodes')}>
          {nodes.length === 0 ? (
            <EmptyState title={t('adminOverview.noNodes')}>{t('adminOverview.noNodesText')}</EmptyState>
          ) : (
            <NodeHealthList nodes={nodes} now={now} />
          )}
        </Card>
      </div>
      <Card title={t('adminOverview.activity')}>
        {activity.length === 0 ? (
          <EmptyState title={t('adminOverview.noActivity')}>{t('adminOverview.noActivityText')}</EmptyState>
        ) : (
          <ul aria-label={t('adminOverview.activity')} className="divide-y divide-zinc-800/80">
            {activity.map(({ attributes: entry }) => (
              <li key={entry.id} className="py-2.5 first:pt-0 last:pb-0">
                <p className="text-sm break-words text-zinc-200">
                  {entry.description?.trim() || describeActivity(entry.event, entry.properties) || entry.event}
                </p>
                <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-zinc-400">
                  <span className="font-medium text-zinc-300">{actorOf(entry) ?? t('adminOverview.system')}</span>
                  {entry.is_api && <span>{t('adminOverview.withKey')}</span>}
                  <time dateTime={entry.timestamp} title={formatDateTime(entry.timestamp, locale)}>
                    {formatRelativeTime(entry.timestamp, now, locale)}
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
