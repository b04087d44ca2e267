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

/** An RFC 3339 time (Go's `time.RFC3339`, an offset or `Z`). */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** An RFC 3339 time as epoch milliseconds; NaN for anything else (a date Date.parse rejects too). */
const epochMs = (value: unknown): number => (typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : NaN);

/**
 * Wings' stat object (`server/filesystem/stat.go`) checked and converted in one pass: zod's
 * per-field walk cost a 10,000-entry listing from a node ~45 ms (issue 24 §6).
 */
function statOf(entry: unknown): DaemonFileStat | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const s = entry as Record<string, unknown>;
  const { name, mode, mode_bits: modeBits, size, directory, file, symlink, mime } = s;
  const createdMs = epochMs(s.created);
  const modifiedMs = epochMs(s.modified);
  if (
    typeof name !== 'string' ||
    typeof mode !== 'string' ||
    typeof modeBits !== 'string' ||
    typeof size !== 'number' ||
    typeof directory !== 'boolean' ||
    typeof file !== 'boolean' ||
    typeof symlink !== 'boolean' ||
    typeof mime !== 'string' ||
    Number.isNaN(createdMs) ||
    Number.isNaN(modifiedMs)
  ) {
    return undefined;
  }
  return { name, mode, modeBits, size, isFile: file, isSymlink: symlink, isDirectory: directory, mimetype: mime, createdMs, modifiedMs };
}

/** compress's answer: one stat object. */
export const wingsStatSchema = z.pipe(
  z.unknown(),
  z.transform((entry, ctx): DaemonFileStat => {
    const stat = statOf(entry);
    if (stat) return stat;
    ctx.issues.push({ code: 'custom', message: 'not a Wings stat object', input: entry });
    return z.NEVER;
  }),
);

/** `files/list-directory`'s answer: every entry a Wings stat object, or the whole answer refused. */
export const wingsListingSchema = z.pipe(
  z.array(z.unknown()),
  z.transform((entries, ctx): DaemonFileStat[] => {
    const stats: DaemonFileStat[] = [];
    for (const [index, entry] of entries.entries()) {
      const stat = statOf(entry);
      if (!stat) {
        ctx.issues.push({ code: 'custom', message: 'not a Wings stat object', input: entry, path: [index] });
        return z.NEVER;
      }
      stats.push(stat);
    }
    return stats;
  }),
);

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
