import type { DaemonEvent } from '../daemon/capabilities';
import type { Db } from '../db';
import { backups, servers, users } from '../db/repos';
import type { Clock } from '../lib/time';
import { logActivity } from './activity';
import { backupEvent } from './backups';
import type { NodeDaemons } from './node-daemons';
import { finishTransfer } from './server-transfers';

/*
 * What a node reports back, handled in one place whether the node is this process or a remote
 * Wings: the panel updates its database and writes the audit entry here, never in the daemon.
 */

export interface DaemonEventContext {
  db: Db;
  clock: Clock;
  /** Where a report the panel cannot use goes (an unknown server, a feature this panel lacks). */
  warn: (message: string) => void;
  /** The nodes, to end a transfer (delete the server from the old one); without them a transfer's report is only logged. */
  daemons?: NodeDaemons;
}

export async function handleDaemonEvent(ctx: DaemonEventContext, event: DaemonEvent): Promise<void> {
  const server = await servers.findByIdentifier(ctx.db, event.server);
  if (!server) {
    ctx.warn(`daemon event ${event.type} for unknown server ${event.server}`);
    return;
  }
  const now = ctx.clock.now();
  switch (event.type) {
    case 'install.completed': {
      // Only an install the panel is waiting for ends here; a server suspended meanwhile stays so.
      if (server.status !== 'installing') return;
      const failed = event.reinstall ? 'reinstall_failed' : 'install_failed';
      await servers.setStatus(ctx.db, server.id, event.successful ? null : failed, now);
      return;
    }
    case 'activity': {
      const actor = await users.findByUuid(ctx.db, event.user);
      await logActivity(ctx.db, {
        event: event.event,
        ip: event.ip,
        actorId: actor?.id ?? null,
        properties: event.properties,
        subjects: [{ type: 'server', id: server.id }],
        timestamp: now,
      });
      return;
    }
    // The reference panel keeps no process state: the node is asked, and the console streams it.
    case 'state.changed':
      return;
    case 'backup.completed': {
      const done = await backups.finish(ctx.db, server.id, event.backup, {
        successful: event.successful,
        checksum: event.checksum,
        bytes: event.bytes,
        now,
      });
      if (!done) {
        ctx.warn(`daemon event ${event.type} for ${event.server} ignored: no running backup ${event.backup} of that server`);
        return;
      }
      const name = event.successful ? 'server:backup.complete' : 'server:backup.fail';
      await logActivity(ctx.db, backupEvent(server, done, name, { name: done.name }, now));
      return;
    }
    // The target's word ends a transfer (as Wings' remote call does); the source's only a failure
    // the target never saw (unreachable, refused before it began).
    case 'transfer.completed':
    case 'transfer.sent': {
      if (event.type === 'transfer.sent' && event.successful) return;
      const reason =
        event.type === 'transfer.sent' ? `The source node could not send the server: ${event.reason}` : 'The target node could not take the server.';
      if (!ctx.daemons) return ctx.warn(`daemon event ${event.type} for ${event.server} ignored: no nodes to end the transfer with`);
      const ended = await finishTransfer({ db: ctx.db, daemons: ctx.daemons, clock: ctx.clock, warn: ctx.warn }, server.id, event.successful, reason);
      if (!ended && event.type === 'transfer.completed')
        ctx.warn(`daemon event ${event.type} for ${event.server} ignored: the server is not being transferred`);
      return;
    }
    case 'restore.completed': {
      // Only a restore the panel is waiting for ends here.
      if (!(await servers.setStatusFrom(ctx.db, server.id, 'restoring_backup', null, now))) {
        ctx.warn(`daemon event ${event.type} for ${event.server} ignored: the server is not restoring a backup`);
        return;
      }
      const backup = await backups.findByUuid(ctx.db, event.backup);
      const name = event.successful ? 'server:backup.restore-complete' : 'server:backup.restore-failed';
      if (backup && backup.server_id === server.id) await logActivity(ctx.db, backupEvent(server, backup, name, { name: backup.name }, now));
      else
        ctx.warn(`daemon event ${event.type} for ${event.server} names no backup of that server (${event.backup}): status cleared, nothing logged`);
      return;
    }
  }
}
