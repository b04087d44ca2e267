import type { Db } from '../index';
import type { EggRow, EggVariableRow } from '../schema';
import * as z from 'zod/mini';
import { parseJsonColumn, stringArray, stringRecord } from './json';

/** The reference panel's `config_startup`: one done line or several. */
const startupConfig = z.object({ done: z.optional(z.union([z.string(), z.array(z.string())])) });

/**
 * An egg with its JSON columns read: display name → image reference, feature names, and the
 * output lines that mean its program has started (always a list, none when it has none).
 */
export type Egg = Omit<EggRow, 'docker_images' | 'features' | 'config_startup'> & {
  docker_images: Record<string, string>;
  features: string[];
  config_startup: { done: string[] };
};

function toEgg(row: EggRow): Egg {
  const done = parseJsonColumn(row.config_startup, startupConfig, {}).done ?? [];
  return {
    ...row,
    docker_images: parseJsonColumn(row.docker_images, stringRecord, {}),
    features: parseJsonColumn(row.features, stringArray, []),
    config_startup: { done: (typeof done === 'string' ? [done] : done).filter((d) => d !== '') },
  };
}

/** An egg by id, or else the first whose name is `name` (case-insensitive). */
export async function findByIdOrName(db: Db, idOrName: string): Promise<Egg | undefined> {
  if (/^\d+$/.test(idOrName)) {
    const byId = await findById(db, Number(idOrName));
    if (byId) return byId;
  }
  const row = await db
    .selectFrom('eggs')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', idOrName.toLowerCase()))
    .orderBy('id')
    .executeTakeFirst();
  return row && toEgg(row);
}

/** The first egg with this uuid. */
export async function findByUuid(db: Db, uuid: string): Promise<Egg | undefined> {
  const row = await db.selectFrom('eggs').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  return row && toEgg(row);
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
  /** Output lines that mean the program has started; none: running as soon as it runs. */
  done?: string[];
  /** A console line, `^C` or a signal name; `stop` by default. */
  stop?: string;
  /** The install script; none by default. */
  scriptInstall?: string;
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
      config_startup: JSON.stringify({ done: egg.done ?? [] }),
      config_stop: egg.stop ?? 'stop',
      script_install: egg.scriptInstall ?? null,
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
