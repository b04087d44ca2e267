import type { DatabaseHostCreate, DatabaseHostUpdate } from '../../src/contract/admin-database-hosts';
import type { Db } from '../db';
import { databaseHosts, nodes } from '../db/repos';
import type { DatabaseHostRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import { checkHost, DatabaseHostError, hostAccess, type HostAccess } from './database-hosts';

/*
 * Database hosts as the admin area and the application API change them: every change that touches
 * how the host is reached is tried on the host first (connect, then the account's privileges), so
 * a host that cannot be used is never saved.
 */

/** A rule refusal (a taken name, an unknown node, databases still on the host): the route's 400/422. */
export class HostRuleError extends Error {
  constructor(
    message: string,
    /** The body field it is about, for a 422. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What a failed check means to an operator, from MariaDB's error code; the raw text follows. */
export function hostFailureMeaning(error: DatabaseHostError, access: Pick<HostAccess, 'host' | 'port' | 'username'>): string {
  const where = `${access.host}:${access.port}`;
  switch (error.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `${where} refused the username or password (${access.username}).`;
    case 'ECONNREFUSED':
      return `Nothing accepts connections at ${where}: is MariaDB or MySQL running there and listening on that port?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host name ${access.host} could not be resolved.`;
    case 'ETIMEDOUT':
      return `${where} did not answer in time (a firewall, or the wrong address?).`;
    case 'ER_HOST_NOT_PRIVILEGED':
      return `${where} does not allow ${access.username} to connect from the panel's address.`;
    default:
      return error.unreachable ? `${where} could not be reached.` : error.message;
  }
}

async function checkNode(db: Db, node: number | null | undefined): Promise<void> {
  if (node !== undefined && node !== null && !(await nodes.findById(db, node))) throw new HostRuleError('The selected node is invalid.', 'node');
}

async function checkName(db: Db, name: string, self?: number): Promise<void> {
  const taken = await databaseHosts.findByName(db, name);
  if (taken && taken.id !== self) throw new HostRuleError('The name has already been taken.', 'name');
}

/** Checks the host can be used with the account given, then adds it. */
export async function createHost(db: Db, box: SecretBox, input: DatabaseHostCreate, now: Date): Promise<DatabaseHostRow> {
  await checkName(db, input.name);
  await checkNode(db, input.node);
  await checkHost(input);
  return databaseHosts.insert(db, {
    name: input.name,
    host: input.host,
    port: input.port,
    username: input.username,
    password: box.seal(input.password),
    max_databases: input.max_databases ?? null,
    node_id: input.node ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
}

/** Changes a host; when how it is reached changes, the new access is checked before anything is saved. */
export async function updateHost(db: Db, box: SecretBox, row: DatabaseHostRow, input: DatabaseHostUpdate, now: Date): Promise<DatabaseHostRow> {
  if (input.name !== undefined) await checkName(db, input.name, row.id);
  await checkNode(db, input.node);
  const reach = input.host !== undefined || input.port !== undefined || input.username !== undefined || input.password !== undefined;
  if (reach) {
    const current = hostAccess(row, box);
    await checkHost({
      host: input.host ?? current.host,
      port: input.port ?? current.port,
      username: input.username ?? current.username,
      password: input.password ?? current.password,
    });
  }
  return databaseHosts.update(db, row.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.host !== undefined ? { host: input.host } : {}),
    ...(input.port !== undefined ? { port: input.port } : {}),
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.password !== undefined ? { password: box.seal(input.password) } : {}),
    ...(input.max_databases !== undefined ? { max_databases: input.max_databases } : {}),
    ...(input.node !== undefined ? { node_id: input.node } : {}),
    updated_at: now.toISOString(),
  });
}

/** Connects with the stored account and checks its privileges. */
export async function testHost(row: DatabaseHostRow, box: SecretBox): Promise<void> {
  await checkHost(hostAccess(row, box));
}

/** Deletes a host that holds no databases; refused, saying how many, while it does. */
export async function removeHost(db: Db, row: DatabaseHostRow): Promise<void> {
  const count = (await databaseHosts.databaseCounts(db)).get(row.id) ?? 0;
  if (count > 0) {
    throw new HostRuleError(
      `This database host still holds ${count} database${count === 1 ? '' : 's'}: delete ${count === 1 ? 'it' : 'them'} first.`,
    );
  }
  await databaseHosts.remove(db, row.id);
}

export { DatabaseHostError };
