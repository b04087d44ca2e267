import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../index';
import { AERIE_NEST_UUID } from '../migrations/020-nests';
import type { NestRow, NestsTable } from '../schema';

/** Nests: the groups of eggs (the reference panel's "Minecraft", "Source Engine", ...). */

export function findById(db: Db, id: number): Promise<NestRow | undefined> {
  return db.selectFrom('nests').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByIds(db: Db, ids: readonly number[]): Promise<NestRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('nests').selectAll().where('id', 'in', ids).execute();
}

export async function page(db: Db, query: { page: number; perPage: number }): Promise<{ rows: NestRow[]; total: number }> {
  const total = await db
    .selectFrom('nests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('nests')
    .selectAll()
    .orderBy('id')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows, total: Number(total.n) };
}

/** The nest eggs go into when none is named: "Aerie" (made by 020; made again if it was deleted). */
export async function defaultNestId(db: Db): Promise<number> {
  const found = await db.selectFrom('nests').select('id').where('uuid', '=', AERIE_NEST_UUID).executeTakeFirst();
  if (found) return found.id;
  const now = new Date().toISOString();
  const row = await db
    .insertInto('nests')
    .values({ uuid: AERIE_NEST_UUID, author: 'support@aerie.local', name: 'Aerie', description: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function insert(db: Db, nest: Insertable<NestsTable>): Promise<NestRow> {
  return db.insertInto('nests').values(nest).returningAll().executeTakeFirstOrThrow();
}

export function update(db: Db, id: number, changes: Updateable<NestsTable>): Promise<NestRow> {
  return db.updateTable('nests').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes a nest unless an egg is in it (checked in the same transaction); the count of its eggs, 0 when deleted. */
export async function removeEmpty(db: Db, id: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const held = await trx
      .selectFrom('eggs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('nest_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(held.n) > 0) return Number(held.n);
    await trx.deleteFrom('nests').where('id', '=', id).execute();
    return 0;
  });
}
