import * as z from 'zod/mini';
import { parseRules, toRegExp } from './variable-rules';

/*
 * The fields of an egg and its variables as an admin writes them (issue 25 §3): one set of checks
 * for the admin area's forms, the egg routes, and an imported egg file, so a hostile file meets
 * the same limits as a form. Limits are the reference's where it has them, else generous bounds
 * for real eggs (the largest install scripts are a few KiB; eggs have a dozen or two variables).
 */

export const MAX_EGG_FILE_BYTES = 1024 * 1024;
export const MAX_EGG_VARIABLES = 100;
export const MAX_EGG_IMAGES = 30;
export const MAX_SCRIPT_LENGTH = 256 * 1024;

const string = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `The ${field} field is required.` : `The ${field} must be a string.`) });
const bounded = (field: string, min: number, max: number) =>
  string(field).check(
    min > 0 ? z.minLength(min, `The ${field} field is required.`) : z.minLength(0),
    z.maxLength(max, `The ${field} may not be greater than ${String(max)} characters.`),
  );

/** A container image reference (`registry[:port]/path[:tag][@sha256:…]`), as Docker parses one. */
export const IMAGE_REFERENCE =
  /^(?:[a-zA-Z0-9.-]+(?::\d{1,5})?\/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*(?::\w[\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
export const imageReference = (field: string) =>
  bounded(field, 1, 255).check(z.regex(IMAGE_REFERENCE, `The ${field} must be an image reference such as ghcr.io/owner/image:tag.`));

export const eggName = bounded('name', 1, 191);
export const eggDescription = z.nullable(bounded('description', 0, 65_535));
export const eggAuthor = bounded('author', 1, 191).check(z.email('The author must be an email address.'));
export const eggStartup = bounded('startup', 1, 10_000);
export const eggStop = bounded('stop command', 1, 191);
export const dockerImages = z.record(bounded('image name', 1, 191), imageReference('image')).check(
  z.refine((images) => Object.keys(images).length > 0, 'The egg needs at least one docker image.'),
  z.refine((images) => Object.keys(images).length <= MAX_EGG_IMAGES, `An egg may have at most ${String(MAX_EGG_IMAGES)} docker images.`),
);
export const eggFeatures = z
  .array(bounded('feature', 1, 64).check(z.regex(/^[\w.-]+$/, 'A feature is a word such as eula.')))
  .check(z.maxLength(32, 'An egg may have at most 32 features.'));
export const fileDenylist = z.array(bounded('denylist entry', 1, 255)).check(z.maxLength(256, 'The file denylist may have at most 256 entries.'));

/** A JSON configuration column (files, startup, logs) as text, as the reference's forms and files hold it. */
export const configJson = (field: string) =>
  bounded(field, 0, 65_535).check(
    z.refine((text) => {
      if (text.trim() === '') return true;
      try {
        const value: unknown = JSON.parse(text);
        return typeof value === 'object' && value !== null;
      } catch {
        return false;
      }
    }, `The ${field} must be a JSON object.`),
  );

export const scriptInstall = z.nullable(bounded('install script', 0, MAX_SCRIPT_LENGTH));
export const scriptEntry = bounded('script entrypoint', 1, 64).check(z.regex(/^[\w./-]+$/, 'The script entrypoint is a program name such as bash.'));

/*
 * Variable names: upper-case words only, never one the panel or the dynamic loader sets itself
 * (the reference's reserved names, the shell's and the loader's), so a variable cannot change
 * how a server's program or its install script is found or loaded.
 */
const RESERVED_ENV = new Set([
  'SERVER_MEMORY',
  'SERVER_IP',
  'SERVER_PORT',
  'ENV',
  'HOME',
  'USER',
  'STARTUP',
  'SERVER_UUID',
  'UUID',
  'PATH',
  'SHELL',
  'PWD',
  'IFS',
  'HOSTNAME',
  'TERM',
  'BASH_ENV',
  'PS4',
  'TZ',
]);
const RESERVED_PREFIXES = ['LD_', 'P_SERVER_', 'BASH_FUNC_'];
export const envVariable = bounded('environment variable', 1, 191).check(
  z.regex(/^[A-Z_][A-Z0-9_]*$/, 'The environment variable may hold only upper-case letters, digits and _.'),
  z.refine(
    (name) => !RESERVED_ENV.has(name) && !RESERVED_PREFIXES.some((p) => name.startsWith(p)),
    'The environment variable is one the panel sets itself.',
  ),
);

/** A rule string the panel can run: rule names are words, and every regex compiles. */
export const variableRules = bounded('rules', 0, 2000).check(
  z.refine((rules) => parseRules(rules).every((r) => /^[a-z_]+$/.test(r.name)), 'The rules must be rule names separated by |.'),
  z.refine(
    (rules) => parseRules(rules).every((r) => !r.name.endsWith('regex') || (r.args[0] !== undefined && toRegExp(r.args[0]) !== undefined)),
    'A regex rule does not compile.',
  ),
);

const variableFields = {
  name: bounded('name', 1, 191),
  description: bounded('description', 0, 65_535),
  env_variable: envVariable,
  default_value: bounded('default value', 0, 4096),
  user_viewable: z.boolean({ error: 'The user viewable must be true or false.' }),
  user_editable: z.boolean({ error: 'The user editable must be true or false.' }),
  rules: variableRules,
};
export const eggVariableWriteSchema = z.object({
  ...variableFields,
  description: z._default(variableFields.description, ''),
  default_value: z._default(variableFields.default_value, ''),
  user_viewable: z._default(variableFields.user_viewable, false),
  user_editable: z._default(variableFields.user_editable, false),
  rules: z._default(variableFields.rules, ''),
});
/** A change to a variable: only the fields sent (no defaults filled in). */
export const eggVariableUpdateSchema = z.partial(z.object(variableFields));
export type EggVariableWrite = z.infer<typeof eggVariableWriteSchema>;
