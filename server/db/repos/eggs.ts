import type { Db } from '../index';
import type { EggRow, EggVariableRow, ServerRow } from '../schema';
import * as z from 'zod/mini';
import { parseJsonColumn, stringArray, stringRecord } from './json';
import { defaultNestId } from './nests';

/** The reference panel's `config_startup`: one done line or several. */
const startupConfig = z.object({ done: z.optional(z.union([z.string(), z.array(z.string())])) });

/**
 * An egg with its JSON columns read: display name → image reference, feature names, and the
 * output lines that mean its program has started (always a list, none when it has none).
 */
export type Egg = Omit<EggRow, 'docker_images' | 'features' | 'config_startup' | 'file_denylist'> & {
  docker_images: Record<string, string>;
  features: string[];
  config_startup: { done: string[] };
  file_denylist: string[];
  /** The JSON columns as stored (the application API and export show them so). */
  stored: { files: unknown; startup: unknown; logs: unknown };
};

const anyJson = z.unknown();

export function toEgg(row: EggRow): Egg {
  const done = parseJsonColumn(row.config_startup, startupConfig, {}).done ?? [];
  return {
    ...row,
    docker_images: parseJsonColumn(row.docker_images, stringRecord, {}),
    features: parseJsonColumn(row.features, stringArray, []),
    config_startup: { done: (typeof done === 'string' ? [done] : done).filter((d) => d !== '') },
    file_denylist: parseJsonColumn(row.file_denylist, stringArray, []),
    stored: {
      files: parseJsonColumn(row.config_files, anyJson, {}),
      startup: parseJsonColumn(row.config_startup, anyJson, {}),
      logs: parseJsonColumn(row.config_logs, anyJson, {}),
    },
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
  /** The nest it goes in; the "Aerie" nest by default. */
  nestId?: number;
  variables: Omit<EggVariableRow, 'id' | 'egg_id' | 'created_at' | 'updated_at'>[];
}

/** Inserts an egg and its variables; run it inside a transaction. */
export async function insert(db: Db, egg: NewEgg): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('eggs')
    .values({
      nest_id: egg.nestId ?? (await defaultNestId(db)),
      created_at: now,
      updated_at: now,
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
      .values(egg.variables.map((v) => ({ ...v, egg_id: row.id, created_at: now, updated_at: now })))
      .execute();
  }
  return row.id;
}

export function variablesOf(db: Db, eggIds: readonly number[]): Promise<EggVariableRow[]> {
  if (eggIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('egg_variables').selectAll().where('egg_id', 'in', eggIds).orderBy('id').execute();
}

/** A nest's eggs, oldest first. */
export async function ofNests(db: Db, nestIds: readonly number[]): Promise<Egg[]> {
  if (nestIds.length === 0) return [];
  const rows = await db.selectFrom('eggs').selectAll().where('nest_id', 'in', nestIds).orderBy('id').execute();
  return rows.map(toEgg);
}

/** The servers of these eggs, oldest first. */
export function serversOf(db: Db, eggIds: readonly number[]): Promise<ServerRow[]> {
  if (eggIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('servers').selectAll().where('egg_id', 'in', eggIds).orderBy('id').execute();
}
