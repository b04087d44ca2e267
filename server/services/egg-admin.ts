import { randomUUID } from 'node:crypto';
import type { EggScript, EggUpdate, EggWrite, NestWrite } from '../../src/contract/egg-writes';
import type { EggVariableWrite } from '../../src/contract/egg-fields';
import { MAX_EGG_VARIABLES } from '../../src/contract/egg-fields';
import { writeTransaction, type Db } from '../db';
import { eggs, eggWrites, nests } from '../db/repos';
import type { Egg } from '../db/repos/eggs';
import type { EggColumns } from '../db/repos/egg-writes';
import type { EggVariableRow, NestRow } from '../db/schema';
import { badRequest, validationError } from '../http/errors';

/*
 * An admin's nests, eggs and egg variables (issue 25 §3). A nest holding eggs and an egg servers
 * use are not deleted (the reference's HasActiveServersException and its nest rule), and the
 * refusal says how many hold them. Variable names are unique within an egg.
 */

export async function createNest(db: Db, input: NestWrite, now: Date): Promise<NestRow> {
  const at = now.toISOString();
  return nests.insert(db, {
    uuid: randomUUID(),
    author: 'support@aerie.local',
    name: input.name,
    description: input.description ?? null,
    created_at: at,
    updated_at: at,
  });
}

export function updateNest(db: Db, nest: NestRow, input: Partial<NestWrite>, now: Date): Promise<NestRow> {
  return nests.update(db, nest.id, { ...input, updated_at: now.toISOString() });
}

export async function deleteNest(db: Db, nest: NestRow): Promise<void> {
  const held = await nests.removeEmpty(db, nest.id);
  if (held > 0) throw badRequest(`Cannot delete a nest that has eggs in it (${String(held)} ${held === 1 ? 'egg' : 'eggs'}).`, 'DisplayException');
}

function columnsOf(input: EggUpdate): EggColumns {
  const columns: EggColumns = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.description !== undefined) columns.description = input.description;
  if (input.author !== undefined) columns.author = input.author;
  if (input.startup !== undefined) columns.startup = input.startup;
  if (input.docker_images !== undefined) columns.docker_images = JSON.stringify(input.docker_images);
  if (input.config_stop !== undefined) columns.config_stop = input.config_stop;
  if (input.config_startup !== undefined) columns.config_startup = input.config_startup.trim() || '{}';
  if (input.config_files !== undefined) columns.config_files = input.config_files.trim() || '{}';
  if (input.config_logs !== undefined) columns.config_logs = input.config_logs.trim() || '{}';
  if (input.features !== undefined) columns.features = JSON.stringify(input.features);
  if (input.file_denylist !== undefined) columns.file_denylist = JSON.stringify(input.file_denylist);
  return columns;
}

async function reread(db: Db, id: number): Promise<Egg> {
  const egg = await eggs.findById(db, id);
  if (!egg) throw new Error(`Egg ${String(id)} is missing.`);
  return egg;
}

export async function createEgg(db: Db, nest: NestRow, input: EggWrite, now: Date): Promise<Egg> {
  const columns = {
    ...columnsOf(input),
    name: input.name,
    startup: input.startup,
    docker_images: JSON.stringify(input.docker_images),
    features: JSON.stringify(input.features ?? []),
  };
  const id = await eggWrites.insertEgg(db, { ...columns, uuid: randomUUID(), nest_id: nest.id }, [], now.toISOString());
  return reread(db, id);
}

export async function updateEgg(db: Db, egg: Egg, input: EggUpdate, now: Date): Promise<Egg> {
  await eggWrites.updateEgg(db, egg.id, columnsOf(input), now.toISOString());
  return reread(db, egg.id);
}

export async function setScript(db: Db, egg: Egg, input: EggScript, now: Date): Promise<Egg> {
  await eggWrites.updateEgg(db, egg.id, { ...input, script_install: input.script_install === '' ? null : input.script_install }, now.toISOString());
  return reread(db, egg.id);
}

export async function deleteEgg(db: Db, egg: Egg): Promise<void> {
  const used = await eggWrites.removeUnused(db, egg.id);
  if (used > 0) throw badRequest(`Cannot delete an egg that servers use (${String(used)} ${used === 1 ? 'server' : 'servers'}).`, 'DisplayException');
}

const flags = <T extends { user_viewable?: boolean; user_editable?: boolean }>(v: T) => ({
  ...v,
  ...(v.user_viewable === undefined ? {} : { user_viewable: v.user_viewable ? 1 : 0 }),
  ...(v.user_editable === undefined ? {} : { user_editable: v.user_editable ? 1 : 0 }),
});

const taken = () => validationError('env_variable', 'The environment variable has already been taken by another variable of this egg.', 'unique');

export async function createVariable(db: Db, egg: Egg, input: EggVariableWrite, now: Date): Promise<EggVariableRow> {
  return writeTransaction(db, async (trx) => {
    if (await eggWrites.findVariableByEnv(trx, egg.id, input.env_variable)) throw taken();
    if ((await eggWrites.countVariables(trx, egg.id)) >= MAX_EGG_VARIABLES) {
      throw validationError('env_variable', `An egg may have at most ${String(MAX_EGG_VARIABLES)} variables.`, 'max');
    }
    return eggWrites.insertVariable(
      trx,
      egg.id,
      { ...input, user_viewable: input.user_viewable ? 1 : 0, user_editable: input.user_editable ? 1 : 0 },
      now.toISOString(),
    );
  });
}

export async function updateVariable(
  db: Db,
  egg: Egg,
  variable: EggVariableRow,
  input: Partial<EggVariableWrite>,
  now: Date,
): Promise<EggVariableRow> {
  return writeTransaction(db, async (trx) => {
    if (
      input.env_variable !== undefined &&
      input.env_variable !== variable.env_variable &&
      (await eggWrites.findVariableByEnv(trx, egg.id, input.env_variable))
    ) {
      throw taken();
    }
    return eggWrites.updateVariable(trx, variable.id, flags(input), now.toISOString());
  });
}

export function deleteVariable(db: Db, variable: EggVariableRow): Promise<void> {
  return eggWrites.deleteVariable(db, variable.id);
}
