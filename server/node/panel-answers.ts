import * as z from 'zod/mini';
import type { InstallConfiguration, ServerConfiguration } from '../daemon/capabilities';

/*
 * What the panel's remote API answers the node (peers.md §4.8), parsed before the daemon sees it:
 * a configuration decides what runs and under which limits, so nothing is taken on trust.
 * Fields Wings reads and this node does not (labels, mounts, configs) are dropped.
 */

const str = z.string().check(z.maxLength(65_536));
const nonNegative = z.number().check(z.nonnegative());

const configurationSchema = z.object({
  settings: z.object({
    uuid: z.uuid(),
    meta: z.object({ name: str, description: str }),
    suspended: z.boolean(),
    environment: z.record(z.string(), z.string()),
    invocation: str,
    skip_egg_scripts: z.boolean(),
    build: z.object({
      memory_limit: nonNegative,
      swap: z.number(),
      io_weight: nonNegative,
      cpu_limit: nonNegative,
      threads: z.pipe(
        z.optional(z.nullable(z.string())),
        z.transform((t) => t ?? ''),
      ),
      disk_space: nonNegative,
      oom_disabled: z.boolean(),
    }),
    container: z.object({
      image: str,
      oom_disabled: z._default(z.boolean(), false),
      requires_rebuild: z._default(z.boolean(), false),
    }),
    allocations: z.object({
      force_outgoing_ip: z.boolean(),
      default: z.object({ ip: str, port: z.int().check(z.minimum(0), z.maximum(65535)) }),
      mappings: z.record(z.string(), z.array(z.int())),
    }),
    egg: z.object({ id: str, file_denylist: z._default(z.array(str), []) }),
  }),
  process_configuration: z.object({
    startup: z.object({
      done: z._default(z.array(str), []),
      user_interaction: z._default(z.array(str), []),
      strip_ansi: z._default(z.boolean(), false),
    }),
    stop: z.object({ type: z.enum(['command', 'signal']), value: str }),
  }),
});

export const serverConfigurationSchema: z.ZodMiniType<ServerConfiguration, unknown> = configurationSchema;

export const installConfigurationSchema: z.ZodMiniType<InstallConfiguration, unknown> = z.object({
  container_image: str,
  entrypoint: str,
  script: z.string().check(z.maxLength(1024 * 1024)),
});

/** A page of `GET /api/remote/servers` (Laravel's paginator); only what the node reads. */
export const serverPageSchema = z.object({
  data: z.array(z.object({ uuid: z.uuid() })),
  meta: z.object({ last_page: z.int().check(z.minimum(1)) }),
});

/** `POST /api/remote/sftp/auth`'s answer. */
export const sftpGrantSchema = z.object({
  user: z.string().check(z.minLength(1), z.maxLength(64)),
  server: z.uuid(),
  permissions: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(256)),
});
