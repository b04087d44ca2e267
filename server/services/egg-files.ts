import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eggFileSchema, type EggExport, type EggFile } from '../../src/contract/egg-file';
import { MAX_EGG_FILE_BYTES } from '../../src/contract/egg-fields';
import { writeTransaction, type Db } from '../db';
import { eggs, eggWrites } from '../db/repos';
import type { Egg } from '../db/repos/eggs';
import type { EggColumns, VariableColumns } from '../db/repos/egg-writes';
import { fromZodError, validationError } from '../http/errors';

/*
 * Egg files (issue 25 §3): import a PTDL_v2 or Pelican file as a new egg or over an existing
 * one's definition, and export an egg as PTDL_v2. A file is read whole only up to 1 MiB, parsed,
 * and checked with the contract before anything is written; a refused file changes nothing. Its
 * install script is stored as text: it only ever runs in the install sandbox, like a typed one.
 */

/** The body as text, refused past 1 MiB without reading further. */
async function readLimited(body: Readable | Buffer): Promise<string> {
  if (Buffer.isBuffer(body)) {
    if (body.length > MAX_EGG_FILE_BYTES) throw tooLarge();
    return body.toString('utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_EGG_FILE_BYTES) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = () => validationError('file', 'The egg file may not be larger than 1 MiB.', 'max');

export async function parseEggFile(body: Readable | Buffer): Promise<EggFile> {
  const text = await readLimited(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw validationError('file', 'The egg file is not JSON.', 'json');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw validationError('file', 'The egg file must be a JSON object.', 'json');
  const parsed = eggFileSchema.safeParse(json);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}

function columnsOf(file: EggFile): EggColumns & { name: string; startup: string; docker_images: string; features: string } {
  return {
    name: file.name,
    author: file.author,
    description: file.description ?? null,
    startup: file.startup,
    docker_images: JSON.stringify(file.docker_images),
    features: JSON.stringify(file.features ?? []),
    file_denylist: JSON.stringify(file.file_denylist ?? []),
    update_url: file.meta.update_url ?? null,
    config_files: file.config.files || '{}',
    config_startup: file.config.startup || '{}',
    config_logs: file.config.logs || '{}',
    config_stop: file.config.stop,
    script_install: file.scripts.installation.script,
    script_container: file.scripts.installation.container,
    script_entry: file.scripts.installation.entrypoint,
  };
}

const variablesOf = (file: EggFile): VariableColumns[] =>
  file.variables.map((v) => ({ ...v, user_viewable: v.user_viewable ? 1 : 0, user_editable: v.user_editable ? 1 : 0 }));

/** A new egg in the nest from a file; a fresh uuid, as the reference's importer gives one. */
export async function importEgg(db: Db, nestId: number, file: EggFile, now: Date): Promise<Egg> {
  const id = await writeTransaction(db, (trx) =>
    eggWrites.insertEgg(trx, { ...columnsOf(file), uuid: randomUUID(), nest_id: nestId }, variablesOf(file), now.toISOString()),
  );
  const egg = await eggs.findById(db, id);
  if (!egg) throw new Error('The imported egg is missing.');
  return egg;
}

/** A file over an existing egg: its id, uuid, nest and servers stay; variables are merged. */
export async function replaceEgg(db: Db, egg: Egg, file: EggFile, now: Date): Promise<Egg> {
  await writeTransaction(db, async (trx) => {
    await eggWrites.updateEgg(trx, egg.id, columnsOf(file), now.toISOString());
    await eggWrites.mergeVariables(trx, egg.id, variablesOf(file), now.toISOString());
  });
  const changed = await eggs.findById(db, egg.id);
  if (!changed) throw new Error('The replaced egg is missing.');
  return changed;
}

const asText = (value: unknown) => JSON.stringify(value ?? {}, null, 4);

export async function exportEgg(db: Db, egg: Egg, now: Date): Promise<EggExport> {
  const variables = await eggs.variablesOf(db, [egg.id]);
  return {
    _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY AERIE',
    meta: { version: 'PTDL_v2', update_url: egg.update_url },
    exported_at: now.toISOString(),
    name: egg.name,
    author: egg.author,
    description: egg.description,
    features: egg.features,
    docker_images: egg.docker_images,
    file_denylist: egg.file_denylist,
    startup: egg.startup,
    config: { files: asText(egg.stored.files), startup: asText(egg.stored.startup), logs: asText(egg.stored.logs), stop: egg.config_stop },
    scripts: { installation: { script: egg.script_install, container: egg.script_container, entrypoint: egg.script_entry } },
    variables: variables.map((v) => ({
      name: v.name,
      description: v.description,
      env_variable: v.env_variable,
      default_value: v.default_value,
      user_viewable: v.user_viewable === 1,
      user_editable: v.user_editable === 1,
      rules: v.rules,
      field_type: 'text' as const,
    })),
  };
}

/** A file name for the download: `egg-<name>.json`, letters, digits and dashes only. */
export function exportFileName(egg: Egg): string {
  const slug =
    egg.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'egg';
  return `egg-${slug.slice(0, 60)}.json`;
}
