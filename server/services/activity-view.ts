import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db';
import { activity } from '../db/repos';
import type { ActivityWithActor, SubjectType } from '../db/repos/activity';
import type { ActivityQuery, activityLogSchema } from '../../src/contract';
import { isoOffset } from '../lib/time';

/*
 * Reading the audit log: the entries of one subject, a page at
 * a time, with the reference panel's privacy rules for IP addresses.
 */

export type ActivityResource = z.infer<typeof activityLogSchema>;

export interface ActivityViewer {
  userId: number;
  isAdmin: boolean;
}

// Never shown to anyone, whatever their role.
const DISABLED_EVENTS = ['server:file.upload'];

/** One page of the entries whose subjects include `subject`, newest first unless `sort=timestamp`. */
export async function listActivity(
  db: Db,
  subject: { type: SubjectType; id: number },
  viewer: ActivityViewer,
  query: ActivityQuery,
): Promise<{ data: ActivityResource[]; total: number }> {
  const { rows, total } = await activity.listForSubject(db, subject, query, DISABLED_EVENTS);
  const withActor = query.include.includes('actor');
  return { data: rows.map((row) => activityResource(row, viewer, withActor)), total };
}

export function activityResource(row: ActivityWithActor, viewer: ActivityViewer, withActor: boolean): ActivityResource {
  const isActor = row.actor_id !== null && row.actor_id === viewer.userId;
  const raw = row.properties;
  const attributes: ActivityResource['attributes'] = {
    id: createHash('sha1').update(String(row.id)).digest('hex'),
    batch: row.batch ?? '',
    event: row.event,
    is_api: row.api_key_id !== null,
    // Another user's address is shown only to root admins.
    ip: isActor || viewer.isAdmin ? row.ip : '',
    description: row.description ?? '',
    properties: rewriteProperties(raw, isActor),
    has_additional_metadata: hasAdditionalMetadata(row.event, Object.keys(raw)),
    timestamp: isoOffset(row.timestamp),
  };
  if (withActor) {
    attributes.relationships = {
      actor:
        row.actor_id !== null && row.actor_username !== null
          ? {
              object: 'user',
              attributes: {
                id: row.actor_id,
                uuid: row.actor_uuid ?? '',
                admin: row.actor_admin === 1,
                username: row.actor_username,
                email: row.actor_email ?? '',
                first_name: row.actor_first ?? '',
                last_name: row.actor_last ?? '',
                language: row.actor_language ?? 'en',
                image: gravatarUrl(row.actor_email ?? ''),
              },
            }
          : { object: 'null_resource', attributes: null },
    };
  }
  return { object: 'activity_log', attributes };
}

/** The avatar URL the reference panel gives users: Gravatar by the md5 of the trimmed, lower-cased e-mail. */
export function gravatarUrl(email: string): string {
  return `https://www.gravatar.com/avatar/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}`;
}

/**
 * The reference transformer's rewrite: `properties.ip` hidden from everyone but the actor (admins
 * included), each array `k` gains `k_count` (a lone one becomes `count`; a list capped when it
 * was stored counts what it left out too), `directory` gets slashes.
 * Built from entries so a stored `__proto__` key stays a plain key.
 */
export function rewriteProperties(props: Record<string, unknown>, viewerIsActor: boolean): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(props)) {
    if (key === 'ip' && !viewerIsActor) entries.push([key, '[hidden]']);
    else if (Array.isArray(value)) entries.push([key, value], [`${key}_count`, value.length + omittedOf(props, key)]);
    else if (key === 'directory' && typeof value === 'string') entries.push([key, `/${value.replace(/^\/+|\/+$/g, '')}/`.replace(/\/\/+/g, '/')]);
    else entries.push([key, value]);
  }
  const counts = entries.filter(([key]) => key.endsWith('_count'));
  const only = counts.length === 1 ? counts[0] : undefined;
  if (only) return Object.fromEntries([...entries.filter((e) => e !== only), ['count', only[1]]]);
  return Object.fromEntries(entries);
}

/** How many entries a capped list left out when it was stored (`<key>_omitted`). */
function omittedOf(props: Record<string, unknown>, key: string): number {
  const omitted = Object.hasOwn(props, `${key}_omitted`) ? props[`${key}_omitted`] : undefined;
  return typeof omitted === 'number' && Number.isSafeInteger(omitted) && omitted > 0 ? omitted : 0;
}

// Placeholders of each event's English description in the reference panel; events missing here
// (plural-only descriptions, or none at all) have none, so any property counts as extra.
const PLACEHOLDERS = new Map<string, readonly string[]>(
  Object.entries({
    'auth:ip-blocked': 'identifier',
    'user:account.email-changed': 'old new',
    'user:api-key.create': 'identifier',
    'user:api-key.delete': 'identifier',
    'user:ssh-key.create': 'fingerprint',
    'user:ssh-key.delete': 'fingerprint',
    'server:console.command': 'command',
    'server:backup.restore': 'name truncate',
    'server:file.create-directory': 'directory name',
    'server:file.decompress': 'directory files',
    'server:file.pull': 'url directory',
    'server:file.uploaded': 'directory file',
    'server:allocation.notes': 'allocation old new',
    'server:task.create': 'action name',
    'server:task.update': 'action name',
    'server:settings.rename': 'old new',
    'server:settings.description': 'old new',
    'server:settings.build': 'summary changes',
    'server:startup.edit': 'variable old new',
    'server:startup.image': 'old new',
    ...fill('name', 'backup', 'download delete restore-complete restore-failed start complete fail lock unlock'),
    ...fill('name', 'database', 'create rotate-password delete'),
    ...fill('file', 'file', 'read copy download write'),
    ...fill('allocation', 'allocation', 'create primary delete'),
    ...fill('name', 'schedule', 'create update execute delete'),
    ...fill('name', 'task', 'delete'),
    ...fill('email', 'subuser', 'create update delete'),
  }).map(([event, keys]) => [event, keys.split(' ')]),
);

function fill(keys: string, area: string, actions: string): Record<string, string> {
  return Object.fromEntries(actions.split(' ').map((action) => [`server:${area}.${action}`, keys]));
}

const NEVER_EXTRA = new Set(['ip', 'useragent', 'using_sftp']);

/** True when the entry holds a property its one-line description does not already show. */
export function hasAdditionalMetadata(event: string, keys: readonly string[]): boolean {
  const placeholders = PLACEHOLDERS.get(event) ?? [];
  return keys.some((key) => !NEVER_EXTRA.has(key) && !placeholders.includes(key));
}
