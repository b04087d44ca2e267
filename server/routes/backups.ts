import type { FastifyInstance } from 'fastify';
import { backupEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { backups, servers } from '../db/repos';
import type { Backup } from '../db/repos/backups';
import { toHttpError } from '../http/daemon-errors';
import { publicOrigin } from '../http/origin';
import { paginatedList } from '../http/pagination';
import { serverRoute } from '../http/routes';
import { logActivity } from '../services/activity';
import {
  assertDownloadable,
  backupEvent,
  backupOf,
  backupResource,
  beginRestore,
  defaultBackupName,
  ignoredPatterns,
  nodeBackups,
  throttledUntil,
} from '../services/backups';
import { isoOffset } from '../lib/time';
import { removeBackup, startBackup } from '../services/server-actions';
import { signedTransferUrl } from '../services/node-tokens';

/*
 * The backups tab (reference panel names, codes and permissions, declared in the contract's
 * `backupEndpoints`). The panel keeps the rows and the rules (`services/backups.ts`); the node
 * writes, restores, deletes and serves the archives, and reports the end of its background work
 * through `services/daemon-events.ts`.
 */
export async function backupRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const uuidOf = (request: { params: unknown }) => (request.params as { backup: string }).backup;
  const subject = (backup: Backup) => [{ type: 'backup' as const, id: backup.id }];

  await serverRoute(
    app,
    deps,
    backupEndpoints.list,
  )(async ({ request, server, query }) => {
    const page = await backups.pageOfServer(db, server.id, { page: query.page, perPage: query.per_page });
    const list = paginatedList(request, deps.config.appUrl, page.backups.map(backupResource), page.total, query);
    const throttle = deps.config.backupThrottle;
    // What the create button needs to agree with the 429 before a dialog opens (whole seconds, rounded up).
    const availableAt = await throttledUntil(db, server.id, throttle, deps.clock.now());
    const backup_throttle =
      throttle.periodSeconds > 0
        ? {
            limit: throttle.limit,
            period: throttle.periodSeconds,
            available_at: availableAt && isoOffset(new Date(Math.ceil(availableAt.getTime() / 1000) * 1000)),
          }
        : undefined;
    return { ...list, meta: { ...list.meta, backup_count: await backups.countNotFailed(db, server.id), backup_throttle } };
  });

  await serverRoute(
    app,
    deps,
    backupEndpoints.create,
  )(async ({ access, body, action }) => {
    // A lock asked for without `backup.delete` is dropped silently, as the reference panel does.
    const input = {
      name: body.name || defaultBackupName(deps.clock.now()),
      ignored: ignoredPatterns(body.ignored),
      locked: body.is_locked === true && access.can('backup.delete'),
      requestedLock: body.is_locked === true,
    };
    return backupResource(await startBackup(action, input, deps.config.backupThrottle));
  });

  await serverRoute(app, deps, backupEndpoints.detail)(async ({ request, server }) => backupResource(await backupOf(db, server, uuidOf(request))));

  await serverRoute(
    app,
    deps,
    backupEndpoints.lock,
  )(async ({ request, server, activity }) => {
    const backup = await backupOf(db, server, uuidOf(request));
    const updated = await backups.toggleLock(db, backup.id);
    await activity(updated.is_locked === 1 ? 'server:backup.lock' : 'server:backup.unlock', { name: backup.name }, subject(backup));
    return backupResource(updated);
  });

  await serverRoute(
    app,
    deps,
    backupEndpoints.restore,
  )(async ({ request, server, body, daemon, activity }) => {
    const backup = await backupOf(db, server, uuidOf(request));
    // `restoring_backup` before the node starts, so every other route answers 409 at once; the
    // node's `restore.completed` clears it.
    await beginRestore(db, server, backup, deps.clock.now());
    // Before the node starts, so its report of the end always comes after this entry.
    await activity('server:backup.restore', { name: backup.name, truncate: body.truncate }, subject(backup));
    try {
      await nodeBackups(daemon).restore(server.uuid, backup.uuid, { truncate: body.truncate });
    } catch (error) {
      // Refused before it began: nothing runs and nothing will report, so the status is put back.
      if (await servers.setStatusFrom(db, server.id, 'restoring_backup', null, deps.clock.now())) {
        await logActivity(db, backupEvent(server, backup, 'server:backup.restore-failed', { name: backup.name }, deps.clock.now()));
      }
      throw toHttpError(error);
    }
  });

  await serverRoute(
    app,
    deps,
    backupEndpoints.delete,
  )(async ({ request, server, action }) => removeBackup(action, await backupOf(db, server, uuidOf(request))));

  await serverRoute(
    app,
    deps,
    backupEndpoints.download,
  )(async ({ request, caller, server, activity }) => {
    const backup = await backupOf(db, server, uuidOf(request));
    assertDownloadable(backup);
    const url = await signedTransferUrl(db, deps.nodes, {
      server,
      user: caller.user,
      scope: 'backup-download',
      path: '/download/backup',
      claims: { backup_uuid: backup.uuid },
      panelOrigin: publicOrigin(request, deps.config.appUrl),
      now: deps.clock.now(),
    });
    // Written when the link is handed out, as files downloads: the node serves it unseen.
    await activity('server:backup.download', { name: backup.name }, subject(backup));
    return url;
  });
}
