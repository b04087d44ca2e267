import { sql, type SqlBool } from 'kysely';
import type { ActivityEvent, ActivityQuery } from '../../../src/contract';
import type { Db } from '../index';
import type { ActivityLogRow } from '../schema';
import { escapeLike } from './like';

/** The actor of an entry, beside it (a left join of `users as u` on `l.actor_id`). */
const ACTOR_COLUMNS = [
  'u.uuid as actor_uuid',
  'u.username as actor_username',
  'u.email as actor_email',
  'u.root_admin as actor_admin',
  'u.name_first as actor_first',
  'u.name_last as actor_last',
  'u.language as actor_language',
] as const;

export type SubjectType =
  | 'server'
  | 'user'
  | 'backup'
  | 'allocation'
  | 'database'
  | 'ssh_key'
  | 'schedule'
  | 'task'
  | 'node'
  | 'location'
  | 'egg'
  | 'nest'
  | 'database_host'
  | 'api_key';

export interface NewActivity {
  /** `<scope>:<area>.<action>`, e.g. `server:file.write`. */
  event: ActivityEvent;
  ip: string;
  actorId?: number | null;
  apiKeyId?: number | null;
  properties?: Record<string, unknown>;
  subjects: { type: SubjectType; id: number }[];
  description?: string | null;
  timestamp: Date;
}

/** Writes one audit entry and its subjects in a single transaction. */
export async function insert(db: Db, input: NewActivity): Promise<void> {
  await insertMany(db, [input]);
}

/** Writes many entries and their subjects in one transaction (an import of a server's history). */
export async function insertMany(db: Db, inputs: readonly NewActivity[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < inputs.length; start += 500) {
      const chunk = inputs.slice(start, start + 500);
      const ids = await trx
        .insertInto('activity_logs')
        .values(
          chunk.map((input) => ({
            event: input.event,
            ip: input.ip,
            actor_id: input.actorId ?? null,
            api_key_id: input.apiKeyId ?? null,
            properties: JSON.stringify(input.properties ?? {}),
            description: input.description ?? null,
            batch: null,
            timestamp: input.timestamp.toISOString(),
          })),
        )
        .returning('id')
        .execute();
      const subjects = chunk.flatMap((input, i) =>
        input.subjects.map((s) => ({ activity_log_id: ids[i]?.id ?? 0, subject_type: s.type, subject_id: s.id })),
      );
      if (subjects.length) await trx.insertInto('activity_subjects').values(subjects).execute();
    }
  });
}

/**
 * Deletes up to `limit` entries older than `cutoff` (their subjects go with them); returns how
 * many. Callers loop, so a large prune never holds the database in one long statement.
 */
export async function deleteOlderThan(db: Db, cutoff: Date, limit: number): Promise<number> {
  const oldest = db.selectFrom('activity_logs').select('id').where('timestamp', '<', cutoff.toISOString()).orderBy('timestamp').limit(limit);
  const result = await db.deleteFrom('activity_logs').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The subject of `type` on a server's latest entry of `event` (which backup its last restore named). */
export async function latestSubjectOf(db: Db, serverId: number, event: ActivityEvent, type: SubjectType): Promise<number | undefined> {
  const row = await db
    .selectFrom('activity_logs as l')
    .innerJoin('activity_subjects as s', (j) =>
      j.onRef('s.activity_log_id', '=', 'l.id').on('s.subject_type', '=', 'server').on('s.subject_id', '=', serverId),
    )
    .innerJoin('activity_subjects as o', (j) => j.onRef('o.activity_log_id', '=', 'l.id').on('o.subject_type', '=', type))
    .select('o.subject_id')
    .where('l.event', '=', event)
    .orderBy('l.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.subject_id;
}

/** An entry, its properties read, with the columns of its actor (null when the actor is gone or there was none). */
export interface ActivityWithActor extends Omit<ActivityLogRow, 'properties'> {
  properties: Record<string, unknown>;
  actor_uuid: string | null;
  actor_username: string | null;
  actor_email: string | null;
  actor_admin: number | null;
  actor_first: string | null;
  actor_last: string | null;
  actor_language: string | null;
}

/**
 * One page of the entries whose subjects include `subject`, newest first unless `sort=timestamp`,
 * leaving out `hidden` events.
 */
export async function listForSubject(
  db: Db,
  subject: { type: SubjectType; id: number },
  query: ActivityQuery,
  hidden: readonly string[],
): Promise<{ rows: ActivityWithActor[]; total: number }> {
  const event = query['filter[event]'];
  // Driven by the subjects index (subject → log ids), joined to each log by rowid: measured about
  // twice as fast as `id IN (subquery)` at 10,000 entries. A log names each subject once.
  const base = db
    .selectFrom('activity_subjects as s')
    .innerJoin('activity_logs as l', 'l.id', 's.activity_log_id')
    .where('s.subject_type', '=', subject.type)
    .where('s.subject_id', '=', subject.id)
    .$if(hidden.length > 0, (qb) => qb.where('l.event', 'not in', hidden))
    .$if(Boolean(event), (qb) => qb.where(sql<SqlBool>`l.event like ${`%${escapeLike(event ?? '')}%`} escape '\\'`));

  const countRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const offset = (query.page - 1) * query.per_page;
  if (total <= offset) return { rows: [], total };

  const direction = query.sort === 'timestamp' ? 'asc' : 'desc';
  // Sort narrow rows (ids) to pick the page, then load only that page's full rows and actors.
  const pageIds = base.select('l.id').orderBy('l.timestamp', direction).orderBy('l.id', direction).limit(query.per_page).offset(offset);
  const rows = await db
    .selectFrom('activity_logs as l')
    .leftJoin('users as u', 'u.id', 'l.actor_id')
    .where('l.id', 'in', pageIds)
    .selectAll('l')
    .select(ACTOR_COLUMNS)
    .orderBy('l.timestamp', direction)
    .orderBy('l.id', direction)
    .execute();
  return { rows: rows.map((row) => ({ ...row, properties: parseProperties(row.properties) })), total };
}

/**
 * The newest `limit` entries whose event starts with `prefix` (`admin:`), with their actors: walked
 * down the timestamp index, the prefix as a range so no LIKE pattern is involved.
 */
export async function latestByPrefix(db: Db, prefix: string, limit: number): Promise<ActivityWithActor[]> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows = await db
    .selectFrom('activity_logs as l')
    .leftJoin('users as u', 'u.id', 'l.actor_id')
    .where('l.event', '>=', prefix)
    .where('l.event', '<', end)
    .selectAll('l')
    .select(ACTOR_COLUMNS)
    .orderBy('l.timestamp', 'desc')
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, properties: parseProperties(row.properties) }));
}

/**
 * The stored properties as an object; anything else reads as `{}`. Copied with fromEntries, which
 * keeps a stored `__proto__` key an own property instead of assigning a prototype.
 */
function parseProperties(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
  } catch {
    return {};
  }
}
