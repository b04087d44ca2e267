import type { Db } from '../db';
import type { Caller } from './auth-context';

export type SubjectType = 'server' | 'user' | 'backup' | 'allocation' | 'database' | 'ssh_key';

export interface ActivityInput {
  /** `<scope>:<area>.<action>` (spec §6), e.g. `server:file.write`. */
  event: string;
  ip: string;
  actorId?: number | null;
  apiKeyId?: number | null;
  properties?: Record<string, unknown>;
  subjects: { type: SubjectType; id: number }[];
  description?: string | null;
  timestamp: Date;
}

/** Writes one audit entry and its subjects in a single transaction. */
export async function logActivity(db: Db, input: ActivityInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('activity_logs')
      .values({
        event: input.event,
        ip: input.ip,
        actor_id: input.actorId ?? null,
        api_key_id: input.apiKeyId ?? null,
        properties: JSON.stringify(input.properties ?? {}),
        description: input.description ?? null,
        batch: null,
        timestamp: input.timestamp.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.subjects.length) {
      await trx
        .insertInto('activity_subjects')
        .values(input.subjects.map((s) => ({ activity_log_id: row.id, subject_type: s.type, subject_id: s.id })))
        .execute();
    }
  });
}

/** Shorthand for the common case: the caller acting on a server. */
export function serverActivity(
  caller: Caller,
  ip: string,
  serverId: number,
  event: string,
  properties: Record<string, unknown>,
  timestamp: Date,
  extraSubjects: ActivityInput['subjects'] = [],
): ActivityInput {
  return {
    event,
    ip,
    actorId: caller.user.id,
    apiKeyId: caller.apiKeyId,
    properties,
    subjects: [{ type: 'server', id: serverId }, ...extraSubjects],
    timestamp,
  };
}
