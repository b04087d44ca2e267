import { useQuery } from '@tanstack/react-query';
import type { Server } from '../../contract/servers';
import { ApiError } from '../../lib/http';
import { serverQueries } from './api';

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

export function nodeDownMessage(server: Pick<Server, 'node'>): string {
  return `This server's node (${server.node}) is not answering; files, console and power are unavailable until it is back.`;
}

/** A page's body while the node does not answer, instead of a console or a listing that would wait forever. */
export function NodeDownNotice({ page, server }: { page: string; server: Pick<Server, 'node'> }) {
  return (
    <div role="status" className="rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
      <h2 className="font-semibold text-white">{page} unavailable</h2>
      <p className="mt-1 text-sm text-zinc-400">This page cannot be shown while the server's node ({server.node}) is not answering.</p>
    </div>
  );
}

/** Root admins: what the panel last heard from the node (version, whether it answers, when last seen). */
export function NodeHealthLine({ health }: { health: NonNullable<Server['aerie_node_health']> }) {
  const seen = health.last_seen ? new Date(health.last_seen).toLocaleString() : 'never since the panel started';
  return (
    <p className="text-xs text-zinc-400" aria-label="Node health">
      <span className={health.reachable ? 'text-emerald-300' : 'text-red-300'}>{health.reachable ? 'Node answering' : 'Node not answering'}</span>
      {health.version && <span> · version {health.version}</span>}
      <span> · last seen {seen}</span>
      {!health.reachable && health.reason && <span className="break-words"> · {health.reason}</span>}
    </p>
  );
}
