import { useQuery } from '@tanstack/react-query';
import type { Server } from '../../contract/servers';
import { ApiError } from '../../lib/http';
import { useLocale } from '../../lib/i18n/catalog';
import { serverQueries } from './api';
import { t as translate, useT } from './messages';

/** How often the frame asks again whether a node that did not answer is back. */
export const NODE_RETRY_MS = 15_000;

/** The pages that need the node itself: they cannot be shown while it does not answer. */
export const NODE_PAGES: readonly string[] = ['', 'files/*', 'file/*'];

/**
 * The panel's answer when the server's node does not answer (Wings' DaemonConnectionException: 504
 * here, a 502/504 on the reference panel).
 */
export const nodeNotAnswering = (error: unknown): boolean =>
  error instanceof ApiError && (error.code === 'DaemonConnectionException' || error.status === 502 || error.status === 504);

/**
 * Whether the server's node is not answering: its live state cannot be had from it (what any
 * panel tells), or the panel's own health check says so (Aerie's `aerie_node_health`, root admins
 * only). Asked again every few seconds while it lasts, so the page recovers by itself.
 */
export function useNodeDown(server: Server | undefined, enabled: boolean): boolean {
  const query = useQuery({
    ...serverQueries.resources({ routeId: server?.identifier ?? '', uuid: server?.uuid ?? '' }),
    enabled: enabled && server !== undefined,
    refetchInterval: (q) => (nodeNotAnswering(q.state.error) ? NODE_RETRY_MS : false),
  });
  if (!enabled || !server) return false;
  return nodeNotAnswering(query.error) || server.aerie_node_health?.reachable === false;
}

export function nodeDownMessage(server: Pick<Server, 'node'>, t = translate): string {
  return t('servers.nodeDown.message', { node: server.node });
}

/** A page's body while the node does not answer, instead of a console or a listing that would wait forever. */
export function NodeDownNotice({ page, server }: { page: string; server: Pick<Server, 'node'> }) {
  const t = useT();
  return (
    <div role="status" className="rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
      <h2 className="font-semibold text-white">{t('servers.unavailable.title', { page })}</h2>
      <p className="mt-1 text-sm text-zinc-400">{t('servers.nodeDown.body', { node: server.node })}</p>
    </div>
  );
}

/** Root admins: what the panel last heard from the node (version, whether it answers, when last seen). */
export function NodeHealthLine({ health }: { health: NonNullable<Server['aerie_node_health']> }) {
  const t = useT();
  const locale = useLocale();
  const seen = health.last_seen ? new Date(health.last_seen).toLocaleString(locale) : t('servers.health.never');
  return (
    <p className="text-xs text-zinc-400" aria-label={t('servers.health.label')}>
      <span className={health.reachable ? 'text-emerald-300' : 'text-red-300'}>
        {t(health.reachable ? 'servers.health.answering' : 'servers.health.notAnswering')}
      </span>
      {health.version && <span> · {t('servers.health.version', { version: health.version })}</span>}
      <span> · {t('servers.health.lastSeen', { seen })}</span>
      {!health.reachable && health.reason && <span className="break-words"> · {health.reason}</span>}
    </p>
  );
}
