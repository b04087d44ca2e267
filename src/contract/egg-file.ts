import * as z from 'zod/mini';
import {
  configJson,
  dockerImages,
  eggAuthor,
  eggDescription,
  eggFeatures,
  eggName,
  eggStartup,
  eggStop,
  envVariable,
  fileDenylist,
  imageReference,
  MAX_EGG_VARIABLES,
  scriptEntry,
  scriptInstall,
  variableRules,
} from './egg-fields';

/*
 * An egg file (issue 25 §3): Pterodactyl's `PTDL_v2` export and Pelican's `PLCN_v1` (the same
 * fields, plus a uuid, `rules` as a list and a `sort`). `PTDL_v1` (images as a list, before
 * 2021) is refused with a message saying so rather than guessed at. Every field is checked with
 * the form's own limits, so an imported egg is no more than an admin could type.
 */

export const EGG_FILE_VERSIONS = ['PTDL_v2', 'PLCN_v1'] as const;

const nullToEmpty = (max: number, detail: string) =>
  z.pipe(
    z.transform((v: unknown) => v ?? ''),
    z.string().check(z.maxLength(max, detail)),
  );
/** The reference's files hold config JSON as text; an object is taken too and kept as its text. */
const configColumn = (field: string) =>
  z.pipe(
    z.transform((v: unknown) => (v === null || v === undefined ? '{}' : typeof v === 'object' ? JSON.stringify(v) : v)),
    configJson(field),
  );

const fileVariable = z.object({
  name: eggName,
  description: nullToEmpty(65_535, 'The description is too long.'),
  env_variable: envVariable,
  default_value: nullToEmpty(4096, 'The default value may not be greater than 4096 characters.'),
  user_viewable: z.boolean({ error: 'The user viewable must be true or false.' }),
  user_editable: z.boolean({ error: 'The user editable must be true or false.' }),
  // Pelican writes the rules as a list.
  rules: z.pipe(
    z.transform((v: unknown) => (Array.isArray(v) ? v.join('|') : (v ?? ''))),
    variableRules,
  ),
});

export const eggFileSchema = z.object({
  meta: z.object({
    version: z.enum(EGG_FILE_VERSIONS, {
      error: 'Only PTDL_v2 (Pterodactyl) and PLCN_v1 (Pelican) egg files can be imported; export a PTDL_v1 file again from a newer panel.',
    }),
    update_url: z.optional(z.nullable(z.string().check(z.maxLength(255, 'The update URL may not be greater than 255 characters.')))),
  }),
  name: eggName,
  author: eggAuthor,
  description: z.optional(eggDescription),
  features: z.optional(z.nullable(eggFeatures)),
  docker_images: dockerImages,
  file_denylist: z.optional(z.nullable(fileDenylist)),
  startup: eggStartup,
  config: z.object({
    files: configColumn('config files'),
    startup: configColumn('config startup'),
    logs: configColumn('config logs'),
    stop: eggStop,
  }),
  scripts: z.object({
    installation: z.object({
      script: scriptInstall,
      container: imageReference('script container'),
      entrypoint: scriptEntry,
    }),
  }),
  variables: z.array(fileVariable).check(
    z.maxLength(MAX_EGG_VARIABLES, `An egg may have at most ${String(MAX_EGG_VARIABLES)} variables.`),
    z.refine((vars) => new Set(vars.map((v) => v.env_variable)).size === vars.length, 'Two variables have the same environment variable.'),
  ),
});
export type EggFile = z.infer<typeof eggFileSchema>;

/** What export writes: a `PTDL_v2` file (config columns as JSON text, as the reference writes them). */
export const eggExportSchema = z.looseObject({
  _comment: z.string(),
  meta: z.object({ version: z.literal('PTDL_v2'), update_url: z.nullable(z.string()) }),
  exported_at: z.string(),
  name: z.string(),
  author: z.string(),
  description: z.nullable(z.string()),
  features: z.array(z.string()),
  docker_images: z.record(z.string(), z.string()),
  file_denylist: z.array(z.string()),
  startup: z.string(),
  config: z.object({ files: z.string(), startup: z.string(), logs: z.string(), stop: z.string() }),
  scripts: z.object({ installation: z.object({ script: z.nullable(z.string()), container: z.string(), entrypoint: z.string() }) }),
  variables: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      env_variable: z.string(),
      default_value: z.string(),
      user_viewable: z.boolean(),
      user_editable: z.boolean(),
      rules: z.string(),
      field_type: z.literal('text'),
    }),
  ),
});
export type EggExport = z.infer<typeof eggExportSchema>;
