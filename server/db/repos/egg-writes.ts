import type { Updateable } from 'kysely';
import type { Db } from '../index';
import type { EggVariableRow, EggVariablesTable, EggsTable } from '../schema';

/** An admin's writes to eggs and their variables (issue 25 §3): create, change, import, delete. */

export type EggColumns = Omit<Updateable<EggsTable>, 'id' | 'uuid' | 'nest_id' | 'created_at' | 'updated_at'>;
export type VariableColumns = Omit<EggVariableRow, 'id' | 'egg_id' | 'created_at' | 'updated_at'>;

export async function insertEgg(
  db: Db,
  egg: EggColumns & { uuid: string; nest_id: number; name: string; startup: string; docker_images: string; features: string },
  variables: readonly VariableColumns[],
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('eggs')
    .values({ ...egg, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (variables.length) {
    await db
      .insertInto('egg_variables')
      .values(variables.map((v) => ({ ...v, egg_id: row.id, created_at: now, updated_at: now })))
      .execute();
  }
  return row.id;
}

export async function updateEgg(db: Db, id: number, changes: EggColumns, now: string): Promise<void> {
  await db
    .updateTable('eggs')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Replaces an egg's variables with a file's, matched by environment variable: a kept one is
 * changed in place (its servers' values stay), a new one added, one the file lacks deleted.
 */
export async function mergeVariables(db: Db, eggId: number, variables: readonly VariableColumns[], now: string): Promise<void> {
  const existing = await db.selectFrom('egg_variables').select(['id', 'env_variable']).where('egg_id', '=', eggId).execute();
  const byEnv = new Map(existing.map((v) => [v.env_variable, v.id]));
  for (const variable of variables) {
    const id = byEnv.get(variable.env_variable);
    if (id === undefined) {
      await db
        .insertInto('egg_variables')
        .values({ ...variable, egg_id: eggId, created_at: now, updated_at: now })
        .execute();
    } else {
      await db
        .updateTable('egg_variables')
        .set({ ...variable, updated_at: now })
        .where('id', '=', id)
        .execute();
      byEnv.delete(variable.env_variable);
    }
  }
  const gone = [...byEnv.values()];
  if (gone.length) await db.deleteFrom('egg_variables').where('id', 'in', gone).execute();
}

export function findVariable(db: Db, eggId: number, id: number): Promise<EggVariableRow | undefined> {
  return db.selectFrom('egg_variables').selectAll().where('egg_id', '=', eggId).where('id', '=', id).executeTakeFirst();
}

export function findVariableByEnv(db: Db, eggId: number, env: string): Promise<EggVariableRow | undefined> {
  return db.selectFrom('egg_variables').selectAll().where('egg_id', '=', eggId).where('env_variable', '=', env).executeTakeFirst();
}

export function countVariables(db: Db, eggId: number): Promise<number> {
  return db
    .selectFrom('egg_variables')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('egg_id', '=', eggId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

export async function insertVariable(db: Db, eggId: number, variable: VariableColumns, now: string): Promise<EggVariableRow> {
  return db
    .insertInto('egg_variables')
    .values({ ...variable, egg_id: eggId, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateVariable(db: Db, id: number, changes: Updateable<EggVariablesTable>, now: string): Promise<EggVariableRow> {
  return db
    .updateTable('egg_variables')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteVariable(db: Db, id: number): Promise<void> {
  await db.deleteFrom('egg_variables').where('id', '=', id).execute();
}

/** Deletes an egg no server uses (checked in the same transaction); how many servers use it, 0 when deleted. */
export async function removeUnused(db: Db, id: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('egg_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(used.n) > 0) return Number(used.n);
    await trx.deleteFrom('egg_variables').where('egg_id', '=', id).execute();
    await trx.deleteFrom('eggs').where('id', '=', id).execute();
    return 0;
  });
}
