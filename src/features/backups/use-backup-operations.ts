import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Backup } from '../../contract/backups';
import { SOCKET_EVENTS, socketBackupProgressSchema } from '../../contract/websocket';
import type { Operation } from '../../components/ui/operations-tray';
import { formatBytes, formatPercent } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useCan } from '../../lib/permissions';
import { activityQueries, type ActivityList } from '../activity/api';
import { useServerSocketEvents } from '../console/api';
import { serverQueries, type ServerRef } from '../servers/api';
import { parseJsonOrUndefined } from '../../lib/json';
import { BACKUP_POLL_MS, BACKUP_SLOW_POLL_MS, backupQueries, hasFailed, isRunning } from './api';
import { useT } from './messages';

type T = ReturnType<typeof useT>;

interface RestoreState {
  name: string | null;
  ended: boolean;
  /** When this page saw it start (ms): the outcome looked up in the activity log is later. */
  since: number;
  /** When this page saw it end (ms). */
  endedAt?: number;
}

/** The node's word on how a restore ended, from the activity log; null while unknown. */
type RestoreOutcome = 'restored' | 'failed' | null;

/** How long after a restore ended its outcome is looked for in the activity log. */
const OUTCOME_WAIT_MS = 30_000;
/** Clocks of browser and panel differ a little. */
const CLOCK_SLACK_MS = 30_000;

/**
 * The outcome of the restore that ended, from the newest `server:backup.restore-*` entry (the panel
 * writes `restore-complete` or `restore-failed` as the node reports), for users with activity.read.
 */
function useRestoreOutcome(server: ServerRef, restore: RestoreState | null): RestoreOutcome {
  const canRead = useCan('activity.read');
  const active = canRead && restore !== null && restore.ended;
  const query = useQuery({
    ...activityQueries.list(server, { page: 1, event: 'server:backup.restore-', sort: '-timestamp', perPage: 1 }),
    enabled: active,
    meta: { quiet: true },
    // The entry may land just after the status cleared.
    refetchInterval: (q) =>
      active && outcomeOf(q.state.data, restore) === null && Date.now() - (restore.endedAt ?? 0) < OUTCOME_WAIT_MS ? BACKUP_POLL_MS : false,
  });
  return active ? outcomeOf(query.data, restore) : null;
}

function outcomeOf(list: ActivityList | undefined, restore: RestoreState | null): RestoreOutcome {
  const entry = list?.data[0]?.attributes;
  if (!entry || !restore || Date.parse(entry.timestamp) < restore.since - CLOCK_SLACK_MS) return null;
  if (entry.event === 'server:backup.restore-complete') return 'restored';
  if (entry.event === 'server:backup.restore-failed') return 'failed';
  return null;
}

/**
 * The backups page's part of the operations tray. Running backups show a spinner; one seen
 * running here stays with its result until dismissed. A restore shows while the server's status
 * is `restoring_backup` (the server's query polls itself meanwhile, as the list answers 409 then), and once it
 * ends the whole server is read again (status, files, backups).
 */
export function useBackupOperations(
  server: ServerRef,
  backups: readonly Backup[] | undefined,
  restoring: boolean,
  progress: ReadonlyMap<string, number> = new Map(),
) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [restore, setRestore] = useState<RestoreState | null>(null);
  const outcome = useRestoreOutcome(server, restore);

  // Backups seen running here stay in the tray with their result.
  useEffect(() => {
    setSeen((known) => {
      const added = (backups ?? []).filter((b) => isRunning(b) && !known.has(b.uuid));
      return added.length === 0 ? known : new Set([...known, ...added.map((b) => b.uuid)]);
    });
  }, [backups]);

  // The restore's start and end as seen from the server's status.
  // From false, so a page opened during a restore shows it too.
  const wasRestoring = useRef(false);
  useEffect(() => {
    if (restoring && !wasRestoring.current) setRestore((r) => (r && !r.ended ? r : { name: null, ended: false, since: Date.now() }));
    if (!restoring && wasRestoring.current) {
      setRestore((r) => ({ name: r?.name ?? null, ended: true, since: r?.since ?? Date.now(), endedAt: Date.now() }));
      void client.invalidateQueries({ queryKey: serverQueries.root(server.routeId) });
    }
    wasRestoring.current = restoring;
  }, [restoring, client, server.routeId]);

  /** A backup made from this page: followed even when it is done before the list shows it running. */
  const track = useCallback((backup: Backup) => setSeen((known) => new Set([...known, backup.uuid])), []);

  /** After the panel accepted a restore (its detail has been read again by then). */
  const startRestore = useCallback(
    (backup: Backup) => {
      const status = client.getQueryData(serverQueries.detail(server.routeId).queryKey)?.attributes.status;
      // A restore over before the status was read again has still happened: show it as ended.
      const ended = status !== 'restoring_backup';
      setRestore((r) => ({ name: backup.name, ended, since: r && !r.ended ? r.since : Date.now(), endedAt: ended ? Date.now() : undefined }));
    },
    [client, server.routeId],
  );

  const dismiss = (id: string) => setDismissed((d) => new Set([...d, id]));
  const operations: Operation[] = [];
  if (restore) operations.push(restoreOperation(t, restore, outcome, () => setRestore(null)));
  for (const b of backups ?? []) {
    if (!seen.has(b.uuid) || dismissed.has(b.uuid)) continue;
    const title = t('backups.op.backup', { name: b.name });
    const action = dismissAction(t, title, () => dismiss(b.uuid));
    if (isRunning(b)) {
      // A percentage where the node tells how far it is (Aerie's node); an indeterminate bar elsewhere.
      const part = progress.get(b.uuid);
      if (part === undefined) operations.push({ id: b.uuid, title, status: 'running', statusText: t('backups.state.running') });
      else
        operations.push({
          id: b.uuid,
          title,
          status: 'running',
          statusText: t('backups.op.runningPercent', { percent: formatPercent(Math.round(part * 100), locale) }),
          progress: part,
          progressLabel: title,
        });
    } else if (hasFailed(b))
      operations.push({ id: b.uuid, title, status: 'error', statusText: t('backups.state.failed'), message: t('backups.op.backupFailed'), action });
    else operations.push({ id: b.uuid, title, detail: formatBytes(b.bytes, locale), status: 'done', statusText: t('backups.op.completed'), action });
  }
  return { operations, startRestore, track };
}

/**
 * Live updates from the server's websocket (for users with websocket.connect): a backup's result
 * refreshes the list, the end of a restore the server's status, and a running backup's progress
 * (Aerie's node tells it) is kept by backup uuid. Returns how often to poll as well: every
 * BACKUP_POLL_MS without the socket, rarely while it is connected (in case an event is missed
 * across a reconnect).
 */
export function useBackupEvents(server: ServerRef): { pollMs: number; progress: ReadonlyMap<string, number> } {
  const client = useQueryClient();
  const canListen = useCan('websocket.connect');
  const [progress, setProgress] = useState<ReadonlyMap<string, number>>(new Map());
  const live = useServerSocketEvents(server.uuid, canListen, (event, args) => {
    if (event.startsWith(`${SOCKET_EVENTS.backupCompleted}:`)) void client.invalidateQueries({ queryKey: backupQueries.all(server) });
    if (event === SOCKET_EVENTS.backupRestoreCompleted) void client.invalidateQueries({ queryKey: serverQueries.detail(server.routeId).queryKey });
    if (event.startsWith(`${SOCKET_EVENTS.backupProgress}:`)) {
      const parsed = socketBackupProgressSchema.safeParse(parseJsonOrUndefined(args[0]));
      if (parsed.success) setProgress((known) => new Map(known).set(parsed.data.uuid, parsed.data.progress));
    }
  });
  return { pollMs: live ? BACKUP_SLOW_POLL_MS : BACKUP_POLL_MS, progress };
}

function dismissAction(t: T, title: string, onClick: () => void) {
  return { label: t('backups.op.dismiss'), ariaLabel: t('backups.op.dismissLabel', { title }), onClick };
}

function restoreOperation(t: T, restore: RestoreState, outcome: RestoreOutcome, dismiss: () => void): Operation {
  const title = restore.name ? t('backups.op.restoreOf', { name: restore.name }) : t('backups.op.restoreOfBackup');
  if (!restore.ended) return { id: 'restore', title, status: 'running', statusText: t('backups.op.restoring') };
  const action = dismissAction(t, title, dismiss);
  if (outcome === 'failed') {
    return { id: 'restore', title, status: 'error', statusText: t('backups.state.failed'), message: t('backups.op.restoreFailed'), action };
  }
  if (outcome === 'restored')
    return { id: 'restore', title, status: 'done', statusText: t('backups.op.restored'), message: t('backups.op.restoredMessage'), action };
  return { id: 'restore', title, status: 'done', statusText: t('backups.op.finished'), message: t('backups.op.finishedMessage'), action };
}
