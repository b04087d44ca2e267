import type { DaemonEvent } from '../daemon/capabilities';
import type { Db } from '../db';
import { servers, users } from '../db/repos';
import type { Clock } from '../lib/time';
import { logActivity } from './activity';

/*
 * What a node reports back, handled in one place whether the node is this process or a remote
 * Wings: the panel updates its database and writes the audit entry here, never in the daemon.
 */

export interface DaemonEventContext {
  db: Db;
  clock: Clock;
  /** Where a report the panel cannot use goes (an unknown server, a feature this panel lacks). */
  warn: (message: string) => void;
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
    case 'backup.completed':
    case 'restore.completed':
      // Backups are recorded by the backups feature, which this panel does not have yet.
      ctx.warn(`daemon event ${event.type} for ${event.server} ignored: this panel keeps no backups`);
      return;
  }
}
