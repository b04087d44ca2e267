import * as z from 'zod/mini';
import { PROCESS_STATES } from '../../../src/contract';
import type { DaemonFileStat } from '../types';

/*
 * Wings' answers as Wings writes them (peers.md §4.3, from its source): each parsed once here,
 * so an answer of any other shape is refused as a node that does not speak Wings, never passed on.
 * Fields Wings sends that the panel does not read are let through unparsed.
 */

/** Wings' error body (`router/middleware/request_error.go`). */
export const wingsErrorSchema = z.object({ error: z.string(), request_id: z.optional(z.string()) });

/** An RFC 3339 time (Go's `time.RFC3339`, an offset or `Z`) as epoch milliseconds. */
const rfc3339 = z.pipe(
  z.string().check(z.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)),
  z.transform((value) => Date.parse(value)),
);

/** One entry of `files/list-directory`, and compress's answer (`server/filesystem/stat.go`). */
export const wingsStatSchema = z.pipe(
  z.object({
    name: z.string(),
    created: rfc3339,
    modified: rfc3339,
    mode: z.string(),
    mode_bits: z.string(),
    size: z.number(),
    directory: z.boolean(),
    file: z.boolean(),
    symlink: z.boolean(),
    mime: z.string(),
  }),
  z.transform((s): DaemonFileStat => ({
    name: s.name,
    mode: s.mode,
    modeBits: s.mode_bits,
    size: s.size,
    isFile: s.file,
    isSymlink: s.symlink,
    isDirectory: s.directory,
    mimetype: s.mime,
    createdMs: s.created,
    modifiedMs: s.modified,
  })),
);

export const wingsListingSchema = z.array(wingsStatSchema);

const processState = z.enum(PROCESS_STATES);

/** `utilization` of `GET /api/servers/{uuid}` (Wings' `environment.Stats`); also the socket's `stats`. */
export const wingsUtilizationSchema = z.object({
  memory_bytes: z.number(),
  memory_limit_bytes: z.number(),
  cpu_absolute: z.number(),
  network: z.object({ rx_bytes: z.number(), tx_bytes: z.number() }),
  uptime: z.number(),
  state: processState,
  disk_bytes: z.number(),
});

/** `GET /api/servers/{uuid}`: the server's state and what it uses (its configuration is not read). */
export const wingsDetailsSchema = z.object({
  state: processState,
  is_suspended: z.boolean(),
  utilization: wingsUtilizationSchema,
});

/** `GET /api/system` (v1): what the node is. */
export const wingsSystemSchema = z.object({
  version: z.string(),
  os: z.optional(z.string()),
  architecture: z.optional(z.string()),
  kernel_version: z.optional(z.string()),
  cpu_count: z.optional(z.number()),
});
