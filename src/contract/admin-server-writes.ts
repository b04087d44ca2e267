import * as z from 'zod/mini';

/*
 * The application API's server bodies, with the reference panel's rules (`ServerRules`,
 * StoreServerRequest, UpdateServer{Details,BuildConfiguration,Startup}Request). Fields the
 * reference fills itself (id, uuid, node_id, status, installed…) are not in them, so a body that
 * sends them changes nothing. Numbers may come as digit strings, as the reference's `numeric` takes.
 */

// The largest limit anyone means (MiB, %); past it a figure is a typo or an attack on the arithmetic.
const LIMIT_MAX = 10_000_000;

const required = (field: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? `The ${field} field is required.` : undefined),
});

/** A whole number (or its digits as a string) between `min` and `max`, named `field` in messages. */
function whole(field: string, min: number, max = LIMIT_MAX) {
  const message = `The ${field} must be a whole number between ${min} and ${max}.`;
  return z
    .pipe(
      // An empty box is a missing value, as Laravel's ConvertEmptyStringsToNull makes it.
      z.union(
        [z.int(), z.string().check(z.regex(/^-?\d{1,10}$/, { error: (i) => (i.input === '' ? `The ${field} field is required.` : message) }))],
        {
          error: (i) => (i.input === undefined ? `The ${field} field is required.` : message),
        },
      ),
      z.transform(Number),
    )
    .check(z.gte(min, message), z.lte(max, message));
}

/** Laravel's `boolean`: true, false, 1, 0, "1", "0". */
function flag(field: string) {
  const message = `The ${field} field must be true or false.`;
  return z.pipe(
    z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: message }),
    z.transform((v) => v === true || v === 1 || v === '1'),
  );
}

const externalId = z.optional(
  z.nullable(
    z
      .string({ error: 'The external id must be a string.' })
      .check(
        z.minLength(1, 'The external id must be between 1 and 191 characters.'),
        z.maxLength(191, 'The external id must be between 1 and 191 characters.'),
      ),
  ),
);
const name = z
  .string(required('name'))
  .check(z.trim(), z.minLength(1, 'The name field is required.'), z.maxLength(191, 'The name may not be greater than 191 characters.'));
const description = z.optional(
  z.nullable(z.string({ error: 'The description must be a string.' }).check(z.maxLength(65_535, 'The description is too long.'))),
);
const image = z
  .string(required('docker image'))
  .check(
    z.maxLength(191, 'The docker image may not be greater than 191 characters.'),
    z.regex(/^~?[\w./\-:@ ]*$/, 'The docker image format is invalid.'),
  );
const startup = z
  .string(required('startup'))
  .check(z.minLength(1, 'The startup field is required.'), z.maxLength(10_000, 'The startup is too long.'));
const threads = z.optional(
  z.nullable(z.string({ error: 'The threads format is invalid.' }).check(z.regex(/^[0-9-,]{0,191}$/, 'The threads format is invalid.'))),
);
const idList = (field: string) =>
  z.array(whole(`${field} entry`, 1, Number.MAX_SAFE_INTEGER), { error: `The ${field} must be an array.` }).check(z.maxLength(1000));

/** Egg variable values by variable name; each is checked against its variable's rules by the service. */
export const applicationEnvironmentSchema = z.record(
  z.string().check(z.maxLength(191)),
  z.pipe(
    z.nullable(z.union([z.string().check(z.maxLength(4096, 'The value may not be greater than 4096 characters.')), z.number(), z.boolean()])),
    z.transform((v) => (v === null ? null : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))),
  ),
  required('environment'),
);

const limitFields = (prefix: string) => ({
  memory: whole(`${prefix}memory`, 0),
  swap: whole(`${prefix}swap`, -1),
  disk: whole(`${prefix}disk`, 0),
  io: whole(`${prefix}io`, 10, 1000),
  cpu: whole(`${prefix}cpu`, 0),
});

const featureLimits = z.object(
  {
    databases: z.nullable(whole('feature limits.databases', 0, 1_000_000)),
    allocations: z.optional(z.nullable(whole('feature limits.allocations', 0, 1_000_000))),
    backups: z.nullable(whole('feature limits.backups', 0, 1_000_000)),
  },
  required('feature limits'),
);

export const applicationServerCreateSchema = z
  .object({
    external_id: externalId,
    name,
    description,
    user: whole('user', 1, Number.MAX_SAFE_INTEGER),
    egg: whole('egg', 1, Number.MAX_SAFE_INTEGER),
    docker_image: image,
    startup,
    environment: applicationEnvironmentSchema,
    skip_scripts: z.optional(flag('skip scripts')),
    oom_disabled: z.optional(flag('oom disabled')),
    limits: z.object({ ...limitFields('limits.'), threads }, required('limits')),
    feature_limits: featureLimits,
    allocation: z.optional(
      z.object({
        default: z.optional(whole('allocation.default', 1, Number.MAX_SAFE_INTEGER)),
        additional: z.optional(idList('allocation.additional')),
      }),
    ),
    deploy: z.optional(
      z.object({
        locations: z.array(whole('deploy.locations entry', 1, Number.MAX_SAFE_INTEGER), required('deploy.locations')).check(z.maxLength(1000)),
        dedicated_ip: flag('deploy.dedicated ip'),
        port_range: z
          .array(
            z.string().check(z.regex(/^\d{1,5}(-\d{1,5})?$/, 'Each port range must be a port or a range such as 25565-25570.')),
            required('deploy.port_range'),
          )
          .check(z.maxLength(100)),
      }),
    ),
    start_on_completion: z.optional(flag('start on completion')),
  })
  .check((ctx) => {
    // `allocation.default` is required unless `deploy` picks the allocation (exclude_with:deploy).
    if (ctx.value.deploy === undefined && ctx.value.allocation?.default === undefined) {
      ctx.issues.push({ code: 'custom', message: 'The allocation.default field is required.', path: ['allocation', 'default'], input: ctx.value });
    }
  });
export type ApplicationServerCreate = z.infer<typeof applicationServerCreateSchema>;

export const applicationServerDetailsSchema = z.object({
  external_id: externalId,
  name,
  user: whole('user', 1, Number.MAX_SAFE_INTEGER),
  description,
});
export type ApplicationServerDetails = z.infer<typeof applicationServerDetailsSchema>;

const legacy = limitFields('');
export const applicationServerBuildSchema = z
  .object({
    allocation: whole('allocation', 1, Number.MAX_SAFE_INTEGER),
    oom_disabled: z.optional(flag('oom disabled')),
    limits: z.optional(z.object({ ...limitFields('limits.'), threads })),
    // The reference still takes the limits at the top level (pterodactyl/panel#1500) when `limits` is absent.
    memory: z.optional(legacy.memory),
    swap: z.optional(legacy.swap),
    disk: z.optional(legacy.disk),
    io: z.optional(legacy.io),
    cpu: z.optional(legacy.cpu),
    threads,
    add_allocations: z.optional(idList('add allocations')),
    remove_allocations: z.optional(idList('remove allocations')),
    feature_limits: featureLimits,
  })
  .check((ctx) => {
    if (ctx.value.limits !== undefined) return;
    for (const field of ['memory', 'swap', 'disk', 'io', 'cpu'] as const) {
      if (ctx.value[field] === undefined) {
        ctx.issues.push({ code: 'custom', message: `The limits.${field} field is required.`, path: ['limits', field], input: ctx.value });
      }
    }
  });
export type ApplicationServerBuild = z.infer<typeof applicationServerBuildSchema>;

export const applicationServerStartupSchema = z.object({
  startup: z.optional(startup),
  environment: applicationEnvironmentSchema,
  egg: whole('egg', 1, Number.MAX_SAFE_INTEGER),
  image: z.optional(image),
  skip_scripts: flag('skip scripts'),
});
export type ApplicationServerStartup = z.infer<typeof applicationServerStartupSchema>;
