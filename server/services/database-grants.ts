import type { Db } from '../db';
import { databaseHosts, serverDatabases } from '../db/repos';
import type { DatabaseHostRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import { hostAccess, withHost } from './database-hosts';
import { repairGrantOnHost } from './database-operations';

/*
 * Users made before grants were escaped (migration 010 marks their hosts) hold `GRANT ALL ON
 * \`s7__main\`.*`, a pattern that also reaches server 70's `s70_main`, and have no connection
 * limit. The panel repairs a marked host once: at start for every host it can reach, and before
 * a host that could not be reached then is used for a new database or password. Only a host
 * whose every user was repaired loses its mark; the rest is tried again.
 */

export interface HostRepair {
  host: string;
  repaired: number;
  /** Databases whose user no longer exists on the host. */
  gone: string[];
}

/** Repairs every user of the host's databases (their escaped grant and connection limit) and clears its mark. */
export async function repairHostGrants(db: Db, box: SecretBox, host: DatabaseHostRow): Promise<HostRepair> {
  const access = hostAccess(host, box);
  const rows = await serverDatabases.onHost(db, host.id);
  const result: HostRepair = { host: host.name, repaired: 0, gone: [] };
  await withHost(access, async (conn) => {
    for (const row of rows) {
      const target = { database: row.database, username: row.username, remote: row.remote, maxConnections: row.max_connections };
      if ((await repairGrantOnHost(conn, target, [access.password])) === 'gone') result.gone.push(row.database);
      else result.repaired += 1;
    }
  });
  await databaseHosts.update(db, host.id, { grants_need_repair: 0 });
  return result;
}

/** A marked host is repaired before it is used; an unmarked one costs nothing. */
export async function ensureHostRepaired(db: Db, box: SecretBox, host: DatabaseHostRow): Promise<void> {
  if (host.grants_need_repair) await repairHostGrants(db, box, host);
}

/** At start: every marked host, one line each to say what happened (a host that fails is kept marked). */
export async function repairMarkedHosts(db: Db, box: SecretBox): Promise<{ message: string; failed: boolean }[]> {
  const lines: { message: string; failed: boolean }[] = [];
  for (const host of await databaseHosts.all(db)) {
    if (!host.grants_need_repair) continue;
    try {
      const done = await repairHostGrants(db, box, host);
      const gone = done.gone.length > 0 ? `; no user any more for ${done.gone.join(', ')}` : '';
      const message = `Database host "${host.name}": ${done.repaired} user(s) now reach only their own database, with a connection limit${gone}.`;
      lines.push({ message, failed: false });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `Database host "${host.name}" could not be repaired (its older users may still reach other servers' databases; tried again at its next use): ${reason}`;
      lines.push({ message, failed: true });
    }
  }
  return lines;
}
