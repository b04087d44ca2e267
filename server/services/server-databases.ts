import type { CreateDatabaseBody, ServerDatabase } from '../../src/contract';
import { writeTransaction, type Db } from '../db';
import { databaseHosts, serverDatabases } from '../db/repos';
import type { DatabaseHostRow, ServerDatabaseRow, ServerRow } from '../db/schema';
import { badRequest, HttpError, notFound, validationError } from '../http/errors';
import type { SecretBox } from '../lib/secret-box';
import { ensureHostRepaired } from './database-grants';
import { DatabaseHostError, hostAccess } from './database-hosts';
import { createDatabaseOnHost, dropDatabaseOnHost, InvalidIdentifierError, realDatabaseName, rotatePasswordOnHost } from './database-operations';

/*
 * A server's databases (the reference's DatabaseController and its services): each row is a
 * database and a user that exist on a database host; the host is changed first and the record
 * follows, so the panel never lists a database the host does not have.
 */

/** A host that refused or could not be reached: a 503 for the client, the reason for the log. */
export class HostUnavailable extends HttpError {
  constructor(readonly reason: string) {
    super(503, 'DatabaseHostUnavailableException', 'The database host could not carry this out; nothing was changed. Try again later.');
  }
}

async function onHost<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseHostError) throw new HostUnavailable(error.message);
    if (error instanceof InvalidIdentifierError) throw validationError(error.field, error.message, 'regex');
    throw error;
  }
}

export function databaseResource(
  row: ServerDatabaseRow,
  host: DatabaseHostRow,
  password: { include: boolean; visible: boolean; box: SecretBox },
): { object: 'server_database'; attributes: ServerDatabase } {
  const opened = password.include && password.visible ? password.box.open(row.password) : null;
  return {
    object: 'server_database',
    attributes: {
      id: String(row.id),
      host: { address: host.host, port: host.port },
      name: row.database,
      username: row.username,
      connections_from: row.remote,
      max_connections: row.max_connections,
      ...(password.include
        ? {
            relationships: {
              password:
                opened === null
                  ? { object: 'null_resource' as const, attributes: null }
                  : { object: 'database_password' as const, attributes: { password: opened } },
            },
          }
        : {}),
    },
  };
}

export async function listDatabases(db: Db, server: ServerRow): Promise<{ row: ServerDatabaseRow; host: DatabaseHostRow }[]> {
  const rows = await serverDatabases.forServer(db, server.id);
  const hosts = new Map((await databaseHosts.all(db)).map((h) => [h.id, h]));
  return rows.flatMap((row) => {
    const host = hosts.get(row.database_host_id);
    return host ? [{ row, host }] : [];
  });
}

/** A database of this server by its id; another server's (or a malformed id) is 404. */
export async function databaseOf(db: Db, server: ServerRow, id: string): Promise<{ row: ServerDatabaseRow; host: DatabaseHostRow }> {
  const row = /^\d{1,15}$/.test(id) ? await serverDatabases.findById(db, Number(id)) : undefined;
  const host = row && row.server_id === server.id ? await databaseHosts.findById(db, row.database_host_id) : undefined;
  if (!row || !host) throw notFound();
  return { row, host };
}

function checkLimit(server: ServerRow, count: number): void {
  if (server.database_limit !== null && count >= server.database_limit) {
    throw badRequest('Cannot create additional databases on this server: limit has been reached.', 'TooManyDatabasesException');
  }
}

/** Whether the panel has a database host at all (the list says so, so the page can tell before a create). */
export async function hasDatabaseHost(db: Db): Promise<boolean> {
  return (await databaseHosts.all(db)).length > 0;
}

/** The host for a new database: one on the server's node first, then any, skipping full ones. */
async function pickHost(db: Db, server: ServerRow): Promise<DatabaseHostRow> {
  const hosts = await databaseHosts.all(db);
  if (hosts.length === 0) {
    throw badRequest(
      'This panel has no database host, so no database can be created. An administrator can add one (npm run -s panel -- dbhost:create).',
      'NoSuitableDatabaseHostException',
    );
  }
  const counts = await databaseHosts.databaseCounts(db);
  const open = hosts.filter((h) => h.max_databases === null || (counts.get(h.id) ?? 0) < h.max_databases);
  const chosen = open.find((h) => h.node_id === server.node_id) ?? open.find((h) => h.node_id === null);
  if (!chosen) throw badRequest('No database host has room for another database.', 'NoSuitableDatabaseHostException');
  return chosen;
}

/** Each panel's creates under way, per server: the tail of its queue. */
const creating = new WeakMap<Db, Map<number, Promise<unknown>>>();

/**
 * One create at a time per server: parallel creates would each pass the limit and name checks and
 * reach the host, where the losers of a same-name race fail as a host error (503) instead of the
 * duplicate (400), and a burst at the limit makes databases on the host only to drop them again.
 */
export async function createDatabase(
  db: Db,
  box: SecretBox,
  server: ServerRow,
  body: CreateDatabaseBody,
  now: Date,
  /** The host an operator named (the application API); else the panel picks one. */
  chosen?: DatabaseHostRow,
): Promise<{ row: ServerDatabaseRow; host: DatabaseHostRow }> {
  const queues = creating.get(db) ?? new Map<number, Promise<unknown>>();
  creating.set(db, queues);
  const run = (queues.get(server.id) ?? Promise.resolve()).then(() => createNow(db, box, server, body, now, chosen));
  const tail = run.catch(() => undefined);
  queues.set(server.id, tail);
  try {
    return await run;
  } finally {
    if (queues.get(server.id) === tail) queues.delete(server.id);
  }
}

async function createNow(
  db: Db,
  box: SecretBox,
  server: ServerRow,
  body: CreateDatabaseBody,
  now: Date,
  chosen: DatabaseHostRow | undefined,
): Promise<{ row: ServerDatabaseRow; host: DatabaseHostRow }> {
  const existing = await serverDatabases.forServer(db, server.id);
  checkLimit(server, existing.length);
  const database = realDatabaseName(server.id, body.database);
  const duplicate = () => badRequest('A database with that name already exists for this server.', 'DuplicateDatabaseNameException');
  // Case-blind, as the reference's check on its case-insensitive column (a host may fold case too).
  const taken = (rows: ServerDatabaseRow[]) => rows.some((d) => d.database.toLowerCase() === database.toLowerCase());
  if (taken(existing)) throw duplicate();
  const host = chosen ?? (await pickHost(db, server));
  const access = await onHost(async () => hostAccess(host, box));
  await onHost(() => ensureHostRepaired(db, box, host));
  const maxConnections = host.max_connections_per_user;
  const created = await onHost(() => createDatabaseOnHost(access, { serverId: server.id, name: body.database, remote: body.remote, maxConnections }));
  try {
    // Checked again with the write lock held: a create that raced this one may have taken the last place.
    const row = await writeTransaction(db, async (trx) => {
      const now_ = await serverDatabases.forServer(trx, server.id);
      checkLimit(server, now_.length);
      if (taken(now_)) throw duplicate();
      return serverDatabases.insert(trx, {
        server_id: server.id,
        database_host_id: host.id,
        database: created.database,
        username: created.username,
        remote: created.remote,
        password: box.seal(created.password),
        max_connections: maxConnections,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
    });
    return { row, host };
  } catch (error) {
    await dropDatabaseOnHost(access, created).catch(() => {});
    throw error;
  }
}

export async function rotateDatabasePassword(
  db: Db,
  box: SecretBox,
  target: { row: ServerDatabaseRow; host: DatabaseHostRow },
  now: Date,
): Promise<ServerDatabaseRow> {
  const access = await onHost(async () => hostAccess(target.host, box));
  await onHost(() => ensureHostRepaired(db, box, target.host));
  const password = await onHost(() => rotatePasswordOnHost(access, target.row));
  return serverDatabases.update(db, target.row.id, { password: box.seal(password), updated_at: now.toISOString() });
}

/** Drops the database and its user on the host, then the record; a host that fails keeps the record. */
export async function deleteDatabase(db: Db, box: SecretBox, target: { row: ServerDatabaseRow; host: DatabaseHostRow }): Promise<void> {
  const access = await onHost(async () => hostAccess(target.host, box));
  await onHost(() => dropDatabaseOnHost(access, target.row));
  await serverDatabases.remove(db, target.row.id);
}
