import type { Db } from '../index';
import type { EggRow, EggVariableRow } from '../schema';
import { parseJsonColumn, stringArray, stringRecord } from './json';

/** An egg with its JSON columns read: display name → image reference, and feature names. */
export type Egg = Omit<EggRow, 'docker_images' | 'features'> & { docker_images: Record<string, string>; features: string[] };

function toEgg(row: EggRow): Egg {
  return { ...row, docker_images: parseJsonColumn(row.docker_images, stringRecord, {}), features: parseJsonColumn(row.features, stringArray, []) };
}

export async function first(db: Db): Promise<Egg | undefined> {
  const row = await db.selectFrom('eggs').selectAll().orderBy('id').executeTakeFirst();
  return row && toEgg(row);
}

export async function findById(db: Db, id: number): Promise<Egg | undefined> {
  const row = await db.selectFrom('eggs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toEgg(row);
}

export async function findByIds(db: Db, ids: readonly number[]): Promise<Egg[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('eggs').selectAll().where('id', 'in', ids).execute();
  return rows.map(toEgg);
}

export interface NewEgg {
  uuid: string;
  name: string;
  startup: string;
  docker_images: Record<string, string>;
  features: string[];
  variables: Omit<EggVariableRow, 'id' | 'egg_id'>[];
}

/** Inserts an egg and its variables; run it inside a transaction. */
export async function insert(db: Db, egg: NewEgg): Promise<number> {
  const row = await db
    .insertInto('eggs')
    .values({
      uuid: egg.uuid,
      name: egg.name,
      startup: egg.startup,
      docker_images: JSON.stringify(egg.docker_images),
      features: JSON.stringify(egg.features),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (egg.variables.length) {
    await db
      .insertInto('egg_variables')
      .values(egg.variables.map((v) => ({ ...v, egg_id: row.id })))
      .execute();
  }
  return row.id;
}

export function variablesOf(db: Db, eggIds: readonly number[]): Promise<EggVariableRow[]> {
  if (eggIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('egg_variables').selectAll().where('egg_id', 'in', eggIds).orderBy('id').execute();
}
