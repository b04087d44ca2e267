import type { ProcessState } from '../../contract/websocket';
import { Badge } from '../../components/ui/badge';
import { PermissionHint, useCan } from '../../lib/permissions';
import { useBlockingCondition, useServer } from '../servers/api';
import { CommandInput } from './command-input';
import { PowerBar } from './power-bar';
import { StatTiles } from './stat-tiles';
import { Terminal } from './terminal';
import { useConsoleSocket } from './use-console-socket';
import { useT } from './messages';
import type { ConnectionState, SocketError } from './socket-client';

const STATUS = {
  offline: { label: 'console.status.offline', tone: 'neutral' },
  starting: { label: 'console.status.starting', tone: 'info' },
  running: { label: 'console.status.running', tone: 'success' },
  stopping: { label: 'console.status.stopping', tone: 'warning' },
} as const satisfies Record<ProcessState, { label: string; tone: 'neutral' | 'info' | 'warning' | 'success' }>;

const CONNECTION = {
  connecting: 'console.connection.connecting',
  reconnecting: 'console.connection.reconnecting',
  error: 'console.connection.error',
} as const satisfies Record<Exclude<ConnectionState, 'connected'>, string>;

/** The client's own reasons for a failed connection, in words. */
const SOCKET_ERRORS = {
  'bad-credentials': 'console.socket.badCredentials',
  'access-lost': 'console.socket.accessLost',
  'connection-lost': 'console.socket.connectionLost',
} as const;

type T = ReturnType<typeof useT>;

function socketError(t: T, error: SocketError): string {
  return 'reason' in error ? t(SOCKET_ERRORS[error.reason]) : error.message;
}

/** The server's landing page: live console, power and what the server uses. */
export function ConsolePage() {
  const t = useT();
  const server = useServer();
  const blocking = useBlockingCondition();
  const canConnect = useCan('websocket.connect');
  const canCommand = useCan('control.console');
  const canStart = useCan('control.start');
  const live = canConnect && !blocking;
  const { socket, state } = useConsoleSocket(server, live);
  // With the connection lost the last state seen may be stale: the server's state is unknown, not "Offline".
  const lost = live && (state.connection === 'reconnecting' || state.connection === 'error');
  const status = live && !lost ? state.status : null;

  return (
    <div className="space-y-4">
      {/* On phones the power bar stays reachable (below the app's sticky header) above the long terminal. */}
      <div className="sticky top-14 z-20 -mx-1 flex flex-wrap items-center justify-between gap-3 bg-zinc-950/90 px-1 py-2 backdrop-blur sm:static sm:bg-transparent sm:backdrop-blur-none">
        <div className="flex items-center gap-2">
          <span role="status" aria-label={t('console.status.label')}>
            {lost ? (
              <Badge tone="neutral">{t('console.status.unknown')}</Badge>
            ) : (
              status && <Badge tone={STATUS[status].tone}>{t(STATUS[status].label)}</Badge>
            )}
          </span>
          <span role="status" aria-label={t('console.connection.label')}>
            {live && state.connection !== 'connected' && (
              <Badge tone={state.connection === 'error' ? 'danger' : 'warning'}>{t(CONNECTION[state.connection])}</Badge>
            )}
          </span>
        </div>
        <PowerBar
          uuid={server.uuid}
          status={status}
          blocked={blocking ? t('console.blocked', { reason: blocking.reason }) : null}
          startBlocked={lost ? t('console.startBlocked') : null}
        />
      </div>

      <section aria-labelledby="console-heading" className="overflow-hidden rounded-lg ring-1 ring-zinc-800">
        <h2 id="console-heading" className="sr-only">
          {t('console.title')}
        </h2>
        {!canConnect ? (
          <div className="space-y-2 bg-zinc-900/70 px-4 py-6 text-sm text-zinc-300">
            <p>{t('console.noAccess')}</p>
            <PermissionHint permission="websocket.connect" />
          </div>
        ) : blocking ? (
          <Notice>{t('console.unavailable', { reason: blocking.reason })}</Notice>
        ) : (
          <>
            {state.connection === 'error' && state.error && (
              <p role="alert" className="border-b border-red-900 bg-red-950/60 px-3 py-2 text-sm text-red-200">
                {socketError(t, state.error)}
              </p>
            )}
            {state.connection === 'reconnecting' && (
              <p className="border-b border-amber-900 bg-amber-950/50 px-3 py-2 text-sm text-amber-200">{t('console.connection.lostNotice')}</p>
            )}
            <Terminal socket={socket} />
            {canCommand ? (
              <CommandInput
                key={server.uuid}
                serverUuid={server.uuid}
                onSend={(command) => socket.send('send command', command)}
                disabledReason={commandBlocked(t, state.connection, status, canStart)}
              />
            ) : (
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-t border-zinc-800 bg-zinc-950 px-3 py-2">
                <p className="text-sm text-zinc-400">{t('console.readOnly')}</p>
                <PermissionHint permission="control.console" />
              </div>
            )}
          </>
        )}
      </section>

      <StatTiles server={server} stats={live && !lost ? state.stats : null} history={live && !lost ? state.history : []} unknown={lost} />
    </div>
  );
}

/** Why a command cannot be sent now (the reference panel allows them while starting and running). */
function commandBlocked(t: T, connection: ConnectionState, status: ProcessState | null, canStart: boolean): string | null {
  if (connection !== 'connected') return t('console.command.waiting');
  // Only someone who may start the server is told to.
  if (status === null || status === 'offline') return t(canStart ? 'console.command.offlineStart' : 'console.command.offlineWait');
  if (status === 'stopping') return t('console.command.stopping');
  return null;
}

function Notice({ children }: { children: string }) {
  return <p className="bg-zinc-900/70 px-4 py-6 text-sm text-zinc-300">{children}</p>;
}
