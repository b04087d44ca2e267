import type { PowerSignal } from '../../src/contract';
import type { NodeDaemon } from '../daemon/capabilities';
import { DaemonError } from '../daemon/types';
import type { Db } from '../db';
import { backups } from '../db/repos';
import type { Backup } from '../db/repos/backups';
import type { ServerRow } from '../db/schema';
import { daemonCall, toHttpError } from '../http/daemon-errors';
import { notFound } from '../http/errors';
import type { Clock } from '../lib/time';
import { logActivity, serverActivity, type ActivityInput } from './activity';
import type { Caller } from './authentication';
import { assertDeletable, backupEvent, nodeBackups, recordBackup, type BackupThrottle } from './backups';

/*
 * What can be done to a server without an HTTP request behind it: a console command, a power
 * action, a backup. A route calls these for its user, a schedule's task for its schedule (issue
 * 23), and each writes its own activity entry for whoever acts, so every caller is audited alike.
 */

/** Who acts: a user through a route (with the request's address and API key), or a schedule of the server. */
export type Actor = { type: 'user'; caller: Caller; ip: string } | { type: 'schedule'; id: number; name: string };

/** The activity entry of `actor` doing `event` to `serverId`; a schedule's entries name it in `schedule`. */
export function actorActivity(
  actor: Actor,
  serverId: number,
  event: ActivityInput['event'],
  properties: Record<string, unknown>,
  timestamp: Date,
  extraSubjects: ActivityInput['subjects'] = [],
): ActivityInput {
  if (actor.type === 'user') return serverActivity(actor.caller, actor.ip, serverId, event, properties, timestamp, extraSubjects);
  return {
    event,
    ip: '',
    actorId: null,
    properties: { ...properties, schedule: actor.name },
    subjects: [{ type: 'server', id: serverId }, ...extraSubjects],
    timestamp,
  };
}

/** One action's circumstances: the server, its node, who acts, and where it is written down. */
export interface ServerAction {
  db: Db;
  clock: Clock;
  server: ServerRow;
  daemon: NodeDaemon;
  actor: Actor;
}

/** A part of the node that only nodes running servers have (`process`, `stats`). */
export function runningPart<T>(part: T | undefined): T {
  if (!part) throw new DaemonError('unavailable', "This server's node cannot run servers.");
  return part;
}

/** A line for the server's console (the node refuses it while the server is offline). */
export async function sendCommand(action: ServerAction, command: string): Promise<void> {
  const { db, clock, server, daemon, actor } = action;
  await daemonCall(async () => runningPart(daemon.process).command(server.uuid, command));
  await logActivity(db, actorActivity(actor, server.id, 'server:console.command', { command }, clock.now()));
}

/** A power signal for the server; who may send which is the caller's to check. */
export async function sendPower(action: ServerAction, signal: PowerSignal): Promise<void> {
  const { db, clock, server, daemon, actor } = action;
  await daemonCall(async () => runningPart(daemon.process).power(server.uuid, signal));
  await logActivity(db, actorActivity(actor, server.id, `server:power.${signal}`, {}, clock.now()));
}

/**
 * Starts a backup: the row under the server's limit and the throttle, its activity entry, then the
 * node's work. A node that refuses before it begins leaves the backup failed, said as such.
 * `requestedLock` is what the entry says was asked for (the reference panel's, even when dropped).
 */
export async function startBackup(
  action: ServerAction,
  input: { name: string; ignored: string[]; locked: boolean; requestedLock: boolean },
  throttle: BackupThrottle,
): Promise<Backup> {
  const { db, clock, server, daemon, actor } = action;
  const backup = await recordBackup(db, server, input, throttle, clock.now());
  await logActivity(
    db,
    actorActivity(actor, server.id, 'server:backup.start', { name: backup.name, locked: input.requestedLock }, clock.now(), [
      { type: 'backup', id: backup.id },
    ]),
  );
  try {
    await nodeBackups(daemon).create(server.uuid, backup.uuid, backup.ignored_files);
  } catch (error) {
    const failed = await backups.finish(db, server.id, backup.uuid, { successful: false, checksum: null, bytes: 0, now: clock.now() });
    if (failed) await logActivity(db, backupEvent(server, failed, 'server:backup.fail', { name: failed.name }, clock.now()));
    throw toHttpError(error);
  }
  return backup;
}

/** Deletes a backup (its archive on the node, then the row); a locked, finished one is refused (400). */
export async function removeBackup(action: ServerAction, backup: Backup): Promise<void> {
  const { db, clock, server, daemon, actor } = action;
  assertDeletable(backup);
  try {
    await nodeBackups(daemon).delete(server.uuid, backup.uuid);
  } catch (error) {
    // An archive the node does not have (a backup that failed early) is already gone.
    if (!(error instanceof DaemonError && error.kind === 'not_found')) throw toHttpError(error);
  }
  if (!(await backups.softDelete(db, backup.id, clock.now()))) throw notFound();
  await logActivity(
    db,
    actorActivity(actor, server.id, 'server:backup.delete', { name: backup.name, failed: backup.is_successful !== 1 }, clock.now(), [
      { type: 'backup', id: backup.id },
    ]),
  );
}
