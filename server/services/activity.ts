import type { Db } from '../db';
import { activity } from '../db/repos';
import type { NewActivity } from '../db/repos/activity';
import { capProperties } from './activity-properties';
import type { Caller } from './authentication';

export type { NewActivity as ActivityInput, SubjectType } from '../db/repos/activity';

/** Writes one audit entry and its subjects. */
export function logActivity(db: Db, input: NewActivity): Promise<void> {
  return logActivities(db, [input]);
}

/** Writes entries and their subjects in one transaction, each entry's properties capped in size. */
export function logActivities(db: Db, inputs: readonly NewActivity[]): Promise<void> {
  return activity.insertMany(
    db,
    inputs.map((input) => ({ ...input, properties: capProperties(input.properties ?? {}) })),
  );
}

/** An entry the caller wrote (actor and API key) about `subjects`. */
function byCaller(
  caller: Caller,
  ip: string,
  event: NewActivity['event'],
  properties: Record<string, unknown>,
  timestamp: Date,
  subjects: NewActivity['subjects'],
): NewActivity {
  return { event, ip, actorId: caller.user.id, apiKeyId: caller.apiKeyId, properties, subjects, timestamp };
}

/** The common case: the caller acting on a server (the server is a subject, the caller the actor). */
export function serverActivity(
  caller: Caller,
  ip: string,
  serverId: number,
  event: NewActivity['event'],
  properties: Record<string, unknown>,
  timestamp: Date,
  extraSubjects: NewActivity['subjects'] = [],
): NewActivity {
  return byCaller(caller, ip, event, properties, timestamp, [{ type: 'server', id: serverId }, ...extraSubjects]);
}

/** The caller acting on their own account (the user is the subject, with `extraSubjects`). */
export function userActivity(
  caller: Caller,
  ip: string,
  event: NewActivity['event'],
  properties: Record<string, unknown>,
  timestamp: Date,
  extraSubjects: NewActivity['subjects'] = [],
): NewActivity {
  return byCaller(caller, ip, event, properties, timestamp, [{ type: 'user', id: caller.user.id }, ...extraSubjects]);
}

/**
 * An admin acting through the application API (a billing system's key, or the admin area's
 * session): the caller as actor, the key as the entry's key, `subjects` what it acted on.
 */
export function adminActivity(
  caller: Caller,
  ip: string,
  event: NewActivity['event'] & `admin:${string}`,
  properties: Record<string, unknown>,
  timestamp: Date,
  subjects: NewActivity['subjects'],
): NewActivity {
  return byCaller(caller, ip, event, properties, timestamp, subjects);
}
