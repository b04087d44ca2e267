import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { LocationRow, LocationsTable } from '../schema';
import { escapeLike, likeExpr } from './like';

/** Locations: the groups of nodes deployment picks among (issue 25 §2). */

export function findById(db: Db, id: number): Promise<LocationRow | undefined> {
  return db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByShort(db: Db, short: string): Promise<LocationRow | undefined> {
  return db.selectFrom('locations').selectAll().where('short', '=', short).executeTakeFirst();
}

export function findByIds(db: Db, ids: readonly number[]): Promise<LocationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('locations').selectAll().where('id', 'in', ids).execute();
}

export interface LocationPageQuery {
  filters: { short?: string; long?: string };
  descending: boolean;
  page: number;
  perPage: number;
}

export async function page(db: Db, query: LocationPageQuery): Promise<{ rows: LocationRow[]; total: number }> {
  let base = db.selectFrom('locations');
  for (const [column, value] of Object.entries(query.filters)) {
    if (value !== undefined && value !== '') base = base.where(likeExpr(`locations.${column}`, `%${escapeLike(value)}%`));
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', query.descending ? 'desc' : 'asc')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows, total: Number(total.n) };
}

export function insert(db: Db, location: Insertable<LocationsTable>): Promise<LocationRow> {
  return db.insertInto('locations').values(location).returningAll().executeTakeFirstOrThrow();
}

export function update(db: Db, id: number, changes: Updateable<LocationsTable>): Promise<LocationRow> {
  return db.updateTable('locations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes a location unless a node is in it (checked in the same transaction); false when one is. */
export async function removeEmpty(db: Db, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const node = await trx.selectFrom('nodes').select('id').where('location_id', '=', id).executeTakeFirst();
    if (node) return false;
    await trx.deleteFrom('locations').where('id', '=', id).execute();
    return true;
  });
}
