import { useRef } from 'react';
import { Link } from 'react-router';
import type { ProcessState } from '../../contract/websocket';
import type { Server } from '../../contract/servers';
import { serverPath } from '../../app/paths';
import { Badge } from '../../components/ui/badge';
import { CopyButton } from '../../components/ui/copy-button';
import { ServerFigures } from './server-figures';
import { primaryAddress } from './server-list-format';
import { serverConditions } from './server-state';
import { useLiveStatus } from './use-live-status';
import { useT } from './messages';

const STATUS = {
  offline: { label: 'servers.status.offline', dot: 'bg-zinc-500' },
  starting: { label: 'servers.status.starting', dot: 'bg-amber-400' },
  running: { label: 'servers.status.running', dot: 'bg-emerald-400' },
  stopping: { label: 'servers.status.stopping', dot: 'bg-amber-400' },
} as const satisfies Record<ProcessState, { label: string; dot: string }>;

/**
 * One server in the list. The whole card is the link (its name is the accessible name); the copy
 * button sits above the link's stretched hit area, because a button may not live inside a link.
 */
export function ServerRow({ server, adminView = false }: { server: Server; adminView?: boolean }) {
  const t = useT();
  const address = primaryAddress(server);
  const badges = serverConditions(server);
  const row = useRef<HTMLLIElement>(null);
  // Suspended, installing… rows keep their badge and do not poll (the panel would answer 409).
  const { stats, nodeDown } = useLiveStatus({ routeId: server.identifier, uuid: server.uuid }, row, !badges.some((b) => b.blocking));
  const status = stats?.current_state;
  return (
    <li ref={row} className="group relative rounded-lg bg-zinc-900 ring-1 ring-zinc-800 transition-colors hover:bg-zinc-900/70 hover:ring-zinc-700">
      <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:gap-6">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Link
              to={serverPath(server.identifier)}
              className="line-clamp-2 min-w-0 break-words font-semibold text-white after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-sky-400 focus-visible:after:outline"
            >
              {server.name}
            </Link>
            {status && (
              <span className="inline-flex items-center gap-1.5 text-xs text-zinc-300">
                <span aria-hidden="true" className={`size-2 rounded-full ${STATUS[status].dot}`} />
                {t(STATUS[status].label)}
              </span>
            )}
            {nodeDown && (
              <span className="inline-flex items-center gap-1.5 text-xs text-red-300" title={t('servers.row.nodeDownTitle', { node: server.node })}>
                <span aria-hidden="true" className="size-2 rounded-full bg-red-400" />
                {t('servers.row.nodeDown')}
              </span>
            )}
            {badges.map((b) => (
              <Badge key={b.kind} tone={b.tone}>
                {b.label}
              </Badge>
            ))}
          </div>
          {server.description ? (
            <p className="mt-1 truncate text-sm text-zinc-400" title={server.description}>
              {server.description}
            </p>
          ) : null}
          <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-400">
            <span className="inline-flex min-w-0 items-center gap-1.5">
              <span className="sr-only">{t('servers.row.node')}</span>
              <NodeIcon />
              <span className="truncate">{server.node}</span>
            </span>
            {address && (
              <span className="inline-flex min-w-0 items-center gap-1.5">
                <span className="sr-only">{t('servers.row.address')}</span>
                <span className="truncate font-mono text-zinc-300">{address}</span>
              </span>
            )}
            {server.aerie_owner ? (
              <span className="inline-flex min-w-0 items-center gap-1.5">
                <span className="text-zinc-500">{t('servers.row.owner')}</span>
                <span className="truncate text-zinc-300" title={server.aerie_owner.email}>
                  {server.server_owner ? t('servers.row.ownerYou') : server.aerie_owner.username}
                </span>
              </span>
            ) : (
              // A subuser is not told the owner's name (the client API has none), only that the
              // server is someone else's, shared with them; in the admin view it may be neither.
              !server.server_owner && (
                <span className="inline-flex min-w-0 items-center gap-1.5">
                  <span className="text-zinc-500">{t('servers.row.owner')}</span>
                  <span className="truncate text-zinc-300">{t(adminView ? 'servers.row.ownerOther' : 'servers.row.shared')}</span>
                </span>
              )
            )}
          </p>
        </div>
        {/* Fixed widths, so every card's figures and copy button sit in the same columns. */}
        <div className="flex flex-wrap items-center justify-between gap-3 sm:shrink-0 sm:justify-end">
          <ServerFigures limits={server.limits} stats={stats} />
          <div className="flex justify-end sm:w-28">
            {address && <CopyButton value={address} label={t('servers.copyAddress')} className="relative z-10" />}
          </div>
        </div>
      </div>
    </li>
  );
}

function NodeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 shrink-0 text-zinc-500">
      <path d="M4.5 3A1.5 1.5 0 0 0 3 4.5v3A1.5 1.5 0 0 0 4.5 9h11A1.5 1.5 0 0 0 17 7.5v-3A1.5 1.5 0 0 0 15.5 3h-11ZM5 6.75a.75.75 0 1 1 1.5 0 .75.75 0 0 1-1.5 0ZM4.5 11A1.5 1.5 0 0 0 3 12.5v3A1.5 1.5 0 0 0 4.5 17h11a1.5 1.5 0 0 0 1.5-1.5v-3a1.5 1.5 0 0 0-1.5-1.5h-11ZM5 14.25a.75.75 0 1 1 1.5 0 .75.75 0 0 1-1.5 0Z" />
    </svg>
  );
}
