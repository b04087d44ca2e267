import { Link } from 'react-router';
import type { Server } from '../../contract/servers';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../components/ui/cn';
import { useServerPermissions } from '../../lib/permissions';
import { installOutputNote } from './install-output';
import { serverConditions, type StateTone } from './server-state';
import { nodeDownMessage, NodeHealthLine } from './node-status';
import { useT } from './messages';

const BANNER_TONES: Record<StateTone, string> = {
  info: 'bg-sky-950/60 text-sky-200 ring-sky-900',
  warning: 'bg-amber-950/60 text-amber-200 ring-amber-900',
  danger: 'bg-red-950/60 text-red-200 ring-red-900',
};

/**
 * Name, identifier and state of the open server, plus a banner for every blocking condition;
 * `transferNote` is what the node last said of a transfer under way (`transfer-progress.ts`).
 */
export function ServerHeader({
  server,
  adminView,
  nodeDown = false,
  transferNote = null,
}: {
  server: Server;
  adminView: boolean;
  nodeDown?: boolean;
  transferNote?: string | null;
}) {
  const t = useT();
  const conditions = serverConditions(server, installOutputNote(useServerPermissions(), server));
  return (
    <header className="space-y-3">
      {/* One line: the heading below names the server in full, so a long name is not said twice over the page. */}
      <nav aria-label={t('servers.header.breadcrumb')} className="flex min-w-0 text-sm text-zinc-400">
        <Link to="/" className="rounded hover:text-zinc-200">
          {t('servers.list.title')}
        </Link>
        <span aria-hidden="true" className="px-1.5">
          /
        </span>
        <span aria-current="page" className="min-w-0 truncate text-zinc-300">
          {server.name}
        </span>
      </nav>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="min-w-0 text-2xl font-semibold break-words text-white">{server.name}</h1>
        <ul className="flex flex-wrap gap-1.5" aria-label={t('servers.header.state')}>
          {conditions.map((c) => (
            <li key={c.kind}>
              <Badge tone={c.tone}>{c.label}</Badge>
            </li>
          ))}
          {adminView && (
            <li>
              <Badge tone="warning">{t('servers.header.adminView')}</Badge>
            </li>
          )}
        </ul>
      </div>
      <p className="text-sm text-zinc-400">
        <span className="font-mono text-zinc-300">{server.identifier}</span>
        <span aria-hidden="true"> · </span>
        <span>{t('servers.header.node', { node: server.node })}</span>
      </p>
      {server.aerie_node_health && <NodeHealthLine health={server.aerie_node_health} />}
      {nodeDown && (
        <p role="alert" className={cn('rounded-md px-3 py-2 text-sm ring-1 ring-inset', BANNER_TONES.danger)}>
          {nodeDownMessage(server)}
        </p>
      )}
      {conditions.map((c) => (
        <p key={c.kind} role="status" className={cn('rounded-md px-3 py-2 text-sm ring-1 ring-inset', BANNER_TONES[c.tone])}>
          {c.message}
          {c.kind === 'transferring' && transferNote && (
            <span className="mt-1 block font-medium text-sky-100">{t('servers.header.transferring', { note: transferNote })}</span>
          )}
        </p>
      ))}
    </header>
  );
}
