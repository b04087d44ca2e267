import fs from 'node:fs';
import * as z from 'zod/mini';
import { ACTIVITY_EVENTS } from '../../src/contract';
import type { Db } from '../db';
import type { ServerRow } from '../db/schema';
import { logActivity } from '../services/activity';
import { findUserByLogin } from '../services/users';

/*
 * `activity:import`: a server's audit history from a JSON file, for operators who move a server
 * here from another panel and want its activity log to come along (or record work done outside
 * the panel). Entries keep their own time and actor; nothing is written unless every entry is valid.
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

export type ImportEntry = z.infer<typeof entrySchema>;

/** Why the file cannot be imported, as one line; the caller prints it. */
export class ImportError extends Error {}

export function readImportFile(file: string): ImportEntry[] {
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

/** Checks every entry (actors exist, no time in the future), then writes them all. */
export async function importActivity(db: Db, server: ServerRow, entries: readonly ImportEntry[], now: Date): Promise<{ imported: number }> {
  const actors = new Map<string, number>();
  const rows = [];
  for (const [i, entry] of entries.entries()) {
    const timestamp = new Date(entry.timestamp);
    if (timestamp.getTime() > now.getTime()) throw new ImportError(`Entry ${i}: timestamp ${entry.timestamp} is in the future.`);
    let actorId: number | null = null;
    if (entry.actor) {
      const known = actors.get(entry.actor) ?? (await findUserByLogin(db, entry.actor))?.id;
      if (known === undefined) throw new ImportError(`Entry ${i}: no user with email or username ${entry.actor}.`);
      actors.set(entry.actor, known);
      actorId = known;
    }
    rows.push({
      event: entry.event,
      ip: entry.ip ?? '',
      actorId,
      properties: entry.properties ?? {},
      description: entry.description ?? null,
      subjects: [{ type: 'server' as const, id: server.id }],
      timestamp,
    });
  }
  for (const row of rows) await logActivity(db, row);
  return { imported: rows.length };
}
