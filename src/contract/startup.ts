import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list } from './envelope';
import { nullableString, text } from './fields';

// A startup variable of the server's egg.
export const eggVariableAttributes = z.object({
  name: z.string(),
  description: z.string(),
  env_variable: z.string(),
  default_value: z.string(),
  server_value: nullableString,
  is_editable: z.boolean(),
  rules: z.string(),
});
export const eggVariableSchema = z.extend(item('egg_variable', eggVariableAttributes), {
  meta: z.optional(z.object({ startup_command: z.string(), raw_startup_command: z.string() })),
});
export type EggVariable = z.infer<typeof eggVariableAttributes>;

export const variablesListMetaSchema = z.object({
  startup_command: z.optional(z.string()),
  docker_images: z.optional(z.record(z.string(), z.string())),
  raw_startup_command: z.optional(z.string()),
});
export const eggVariableListSchema = list(eggVariableSchema, z.optional(variablesListMetaSchema));

// Changing the container image (the reference panel's image reference rule)
export const dockerImageSchema = z.object({
  docker_image: text('The docker image field is required.').check(
    z.minLength(1, 'The docker image field is required.'),
    z.maxLength(191, 'The docker image may not be greater than 191 characters.'),
    z.regex(/^[\w#./\- ]*\|?~?[\w./\-:@ ]*$/, 'The docker image format is invalid.'),
  ),
});

// Setting one startup variable (the reference panel: `key` required, `value` present, null meaning empty).
export const updateVariableSchema = z.object({
  key: text('The key field is required.').check(z.minLength(1, 'The key field is required.')),
  value: z.pipe(
    z.nullable(
      z.union([z.string(), z.number(), z.boolean()], {
        error: (issue) => (issue.input === undefined ? 'The value field must be present.' : 'The value must be a string.'),
      }),
    ),
    z.transform((v) => (v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))),
  ),
});

const startup = '/api/client/servers/:server/startup';

export const startupEndpoints = {
  read: endpoint({ method: 'GET', path: startup, response: eggVariableListSchema, permission: 'startup.read' }),
  /** The variable with the startup command in its meta, but not the images. */
  updateVariable: endpoint({
    method: 'PUT',
    path: `${startup}/variable`,
    body: updateVariableSchema,
    response: eggVariableSchema,
    permission: 'startup.update',
  }),
};
