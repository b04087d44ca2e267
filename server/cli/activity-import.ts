import fs from 'node:fs';
import * as z from 'zod/mini';
import { ACTIVITY_EVENTS } from '../../src/contract';
import { ImportError } from '../services/activity-import';

/*
 * `activity:import`: reading and checking the file's shape. What the entries mean (actors that
 * exist, no time in the future) and the writing is the activity import service's.
 */

const MAX_ENTRIES = 100_000;

const entrySchema = z.object({
  event: z
    .enum(ACTIVITY_EVENTS, { error: 'must be an activity event the panel knows' })
    .check(z.refine((e) => e.startsWith('server:'), 'must be a server:… event')),
  timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-03-01T12:00:00Z' }),
  /** Email or username of an existing user; absent or null for the system. */
  actor: z.optional(z.nullable(z.string())),
  ip: z.optional(z.union([z.ipv4(), z.ipv6(), z.literal('')])),
  properties: z.optional(z.record(z.string(), z.unknown())),
  description: z.optional(z.nullable(z.string().check(z.maxLength(255)))),
});

const fileSchema = z.array(entrySchema).check(z.maxLength(MAX_ENTRIES, `at most ${MAX_ENTRIES} entries per file`));

export function readImportFile(file: string): z.infer<typeof fileSchema> {
  let text: string;
  try {
    // `-` is standard input, so an export can be piped straight in.
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new ImportError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `entry ${issue.path.join('.')}` : 'the file';
    throw new ImportError(`${file}: ${where} ${issue?.message ?? 'is not valid'} (expected a JSON array of entries).`);
  }
  return parsed.data;
}
