import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { eggExportSchema } from './egg-file';
import {
  configJson,
  dockerImages,
  eggAuthor,
  eggDescription,
  eggFeatures,
  eggName,
  eggStartup,
  eggStop,
  eggVariableUpdateSchema,
  eggVariableWriteSchema,
  fileDenylist,
  imageReference,
  scriptEntry,
  scriptInstall,
} from './egg-fields';
import { adminEggVariableSchema, eggSchema, eggsPath, nestSchema, nestsPath } from './eggs';

/*
 * Aerie's own egg and nest writes (issue 25 §3): the reference does these in its admin pages, not
 * its API, so they are extras under `/api/application` (resource `eggs`; nests' writes too, as
 * the reference's admin pages keep them together) that a billing system need not know.
 */

const nestBody = z.object({ name: eggName, description: z.optional(eggDescription) });
export const nestWriteSchema = nestBody;
export type NestWrite = z.infer<typeof nestWriteSchema>;

/** An egg's definition as the edit form sends it; the config columns are JSON text. */
export const eggWriteSchema = z.object({
  name: eggName,
  description: z.optional(eggDescription),
  author: z.optional(eggAuthor),
  startup: eggStartup,
  docker_images: dockerImages,
  config_stop: z.optional(eggStop),
  config_startup: z.optional(configJson('config startup')),
  config_files: z.optional(configJson('config files')),
  config_logs: z.optional(configJson('config logs')),
  features: z.optional(eggFeatures),
  file_denylist: z.optional(fileDenylist),
});
export type EggWrite = z.infer<typeof eggWriteSchema>;
export const eggUpdateSchema = z.partial(eggWriteSchema);
export type EggUpdate = z.infer<typeof eggUpdateSchema>;

export const eggScriptSchema = z.object({
  script_install: scriptInstall,
  script_container: imageReference('script container'),
  script_entry: scriptEntry,
});
export type EggScript = z.infer<typeof eggScriptSchema>;

const eggPath = `${eggsPath}/:egg`;
const admin = { admin: true, resource: 'eggs' } as const;

export const eggWriteEndpoints = {
  createNest: endpoint({ method: 'POST', path: nestsPath, body: nestWriteSchema, response: nestSchema, ...admin }),
  updateNest: endpoint({ method: 'PATCH', path: `${nestsPath}/:nest`, body: z.partial(nestBody), response: nestSchema, ...admin }),
  /** Refused (400) while eggs are in it, saying how many. */
  deleteNest: endpoint({ method: 'DELETE', path: `${nestsPath}/:nest`, response: 'empty', ...admin }),
  create: endpoint({ method: 'POST', path: eggsPath, body: eggWriteSchema, response: eggSchema, ...admin }),
  update: endpoint({ method: 'PATCH', path: eggPath, body: eggUpdateSchema, response: eggSchema, ...admin }),
  script: endpoint({ method: 'PUT', path: `${eggPath}/script`, body: eggScriptSchema, response: eggSchema, ...admin }),
  /** Refused (400) while servers use it, saying how many. */
  delete: endpoint({ method: 'DELETE', path: eggPath, response: 'empty', ...admin }),
  createVariable: endpoint({
    method: 'POST',
    path: `${eggPath}/variables`,
    body: eggVariableWriteSchema,
    response: adminEggVariableSchema,
    ...admin,
  }),
  updateVariable: endpoint({
    method: 'PATCH',
    path: `${eggPath}/variables/:variable`,
    body: eggVariableUpdateSchema,
    response: adminEggVariableSchema,
    ...admin,
  }),
  deleteVariable: endpoint({ method: 'DELETE', path: `${eggPath}/variables/:variable`, response: 'empty', ...admin }),
  /** An egg file (at most 1 MiB) as the body: a new egg in the nest (201). */
  import: endpoint({ method: 'POST', path: `${eggsPath}/import`, body: 'raw', response: eggSchema, ...admin }),
  /** An egg file replacing this egg's definition; variables are matched by their environment variable. */
  replace: endpoint({ method: 'POST', path: `${eggPath}/import`, body: 'raw', response: eggSchema, ...admin }),
  /** The egg as a PTDL_v2 file (a download: Content-Disposition names it). */
  export: endpoint({ method: 'GET', path: `${eggPath}/export`, response: eggExportSchema, ...admin }),
};
