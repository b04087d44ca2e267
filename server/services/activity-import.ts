import type { ActivityEvent } from '../../src/contract';
import type { Db } from '../db';
import type { ServerRow } from '../db/schema';
import { logActivities } from './activity';
import { findUserByLogin } from './users';

/*
 * A server's audit history brought in from elsewhere (the admin CLI's activity:import), for
 * operators who move a server here from another panel and want its activity log to come along, or
 * record work done outside the panel. Entries keep their own time and actor; nothing is written
 * unless every entry is valid, and then all of them are written in one transaction.
 */

export interface ImportEntry {
  event: ActivityEvent;
  /** ISO 8601. */
  timestamp: string;
  /** Email or username of an existing user; absent or null for the system. */
  actor?: string | null;
  ip?: string;
  properties?: Record<string, unknown>;
  description?: string | null;
}

/** Why the entries cannot be imported, as one line. */
export class ImportError extends Error {}

/** Checks every entry (actors exist, no time in the future), then writes them all. */
export async function importActivity(db: Db, server: ServerRow, entries: readonly ImportEntry[], now: Date): Promise<{ imported: number }> {
  const actors = new Map<string, number>();
  const rows = [];
  for (const [i, entry] of entries.entries()) {
    const timestamp = new Date(entry.timestamp);
    if (timestamp.getTime() > now.getTime()) throw new ImportError(`Entry ${i}: timestamp ${entry.timestamp} is in the future.`);
    let actorId: number | null = null;
    if (entry.actor) {
      const known = actors.get(entry.actor) ?? (await findUserByLogin(db, entry.actor))?.id;
      if (known === undefined) throw new ImportError(`Entry ${i}: no user with email or username ${entry.actor}.`);
      actors.set(entry.actor, known);
      actorId = known;
    }
    rows.push({
      event: entry.event,
      ip: entry.ip ?? '',
      actorId,
      properties: entry.properties ?? {},
      description: entry.description ?? null,
      subjects: [{ type: 'server' as const, id: server.id }],
      timestamp,
    });
  }
  await logActivities(db, rows);
  return { imported: rows.length };
}
