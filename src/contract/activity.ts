import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';
import { filterText, nullableString, pageNumber, perPage, timestamp } from './fields';

/**
 * Every audit event name the reference panel and its daemon write (its English activity strings),
 * in one typed list: our server writes only these, the SPA describes them. A real panel may send
 * others (plugins), so a listed entry's `event` stays a plain string.
 */
export const ACTIVITY_EVENTS = [
  'auth:fail',
  'auth:success',
  'auth:password-reset',
  'auth:reset-password',
  'auth:checkpoint',
  'auth:recovery-token',
  'auth:token',
  'auth:ip-blocked',
  'auth:sftp.fail',
  'user:account.email-changed',
  'user:account.password-changed',
  // Not the reference's: the account's theme or language changed (Aerie's preferences).
  'user:account.preferences-changed',
  'user:api-key.create',
  'user:api-key.delete',
  'user:ssh-key.create',
  'user:ssh-key.delete',
  'user:two-factor.create',
  'user:two-factor.delete',
  'server:reinstall',
  'server:console.command',
  'server:power.start',
  'server:power.stop',
  'server:power.restart',
  'server:power.kill',
  'server:backup.download',
  'server:backup.delete',
  'server:backup.restore',
  'server:backup.restore-complete',
  'server:backup.restore-failed',
  'server:backup.start',
  'server:backup.complete',
  'server:backup.fail',
  'server:backup.lock',
  'server:backup.unlock',
  'server:database.create',
  'server:database.rotate-password',
  'server:database.delete',
  'server:file.compress',
  'server:file.read',
  'server:file.copy',
  'server:file.create-directory',
  'server:file.decompress',
  'server:file.delete',
  'server:file.download',
  'server:file.pull',
  'server:file.rename',
  'server:file.write',
  'server:file.upload',
  'server:file.uploaded',
  'server:sftp.denied',
  'server:sftp.create',
  'server:sftp.write',
  'server:sftp.delete',
  'server:sftp.create-directory',
  'server:sftp.rename',
  'server:allocation.create',
  'server:allocation.notes',
  'server:allocation.primary',
  'server:allocation.delete',
  'server:schedule.create',
  'server:schedule.update',
  'server:schedule.execute',
  'server:schedule.delete',
  'server:task.create',
  'server:task.update',
  'server:task.delete',
  'server:settings.rename',
  'server:settings.description',
  // Not the reference's: an operator changed the server's limits, owner or egg (the admin CLI).
  'server:settings.build',
  'server:startup.edit',
  'server:startup.image',
  'server:subuser.create',
  'server:subuser.update',
  'server:subuser.delete',
  // Not the reference's (its admin area logs nothing): what root admins and application keys did
  // through the application API, the key as the entry's key when one was used.
  'admin:user.create',
  'admin:user.update',
  'admin:user.delete',
  'admin:user.two-factor.delete',
  'admin:location.create',
  'admin:location.update',
  'admin:location.delete',
  'admin:node.create',
  'admin:node.update',
  'admin:node.delete',
  'admin:allocation.create',
  'admin:allocation.update',
  'admin:allocation.delete',
  'admin:server.create',
  'admin:server.details',
  'admin:server.build',
  'admin:server.startup',
  'admin:server.suspend',
  'admin:server.unsuspend',
  'admin:server.reinstall',
  'admin:server.transfer',
  'admin:server.delete',
  'admin:database.create',
  'admin:database.rotate-password',
  'admin:database.delete',
  'admin:database-host.create',
  'admin:database-host.update',
  'admin:database-host.delete',
  'admin:egg.create',
  'admin:egg.import',
  'admin:egg.update',
  'admin:egg.delete',
  'admin:nest.create',
  'admin:nest.update',
  'admin:nest.delete',
  'admin:api-key.create',
  'admin:api-key.delete',
  'admin:settings.update',
] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

// The embedded user of an activity entry.
export const activityActorAttributes = z.object({
  id: z.optional(z.int()),
  uuid: z.optional(z.string()),
  admin: z.optional(z.boolean()),
  username: z.string(),
  email: z.string(),
  first_name: z.optional(z.string()),
  last_name: z.optional(z.string()),
  language: z.optional(z.string()),
  image: z.optional(z.string()),
});
export const activityActorSchema = item('user', activityActorAttributes);

export const activityLogAttributes = z.object({
  id: z.string(),
  batch: nullableString,
  event: z.string().check(z.regex(/^[a-z_-]+:[a-z0-9_.-]+$/i)),
  is_api: z.boolean(),
  ip: nullableString,
  description: nullableString,
  properties: z.record(z.string(), z.unknown()),
  has_additional_metadata: z.boolean(),
  timestamp,
  relationships: z.optional(z.object({ actor: z.union([activityActorSchema, nullResourceSchema]) })),
});
export const activityLogSchema = item('activity_log', activityLogAttributes);
export type ActivityLog = z.infer<typeof activityLogAttributes>;
export const activityLogListSchema = list(activityLogSchema, paginatedMetaSchema);

// The activity log: maximum 100 per page; default 25 as the reference panel.
export const ACTIVITY_FILTERS = ['filter[event]'] as const;
export const activityQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(25, 100),
  'filter[event]': filterText,
  sort: z.optional(z.enum(['timestamp', '-timestamp'])),
  include: z
    .pipe(
      z.optional(z.string().check(z.maxLength(100))),
      z.transform((s) =>
        (s ?? '')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    )
    .check(z.refine((parts) => parts.every((p) => p === 'actor'), 'Only actor may be included.')),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityEndpoints = {
  /** A server's activity log, newest first. */
  server: endpoint({
    method: 'GET',
    path: '/api/client/servers/:server/activity',
    query: activityQuerySchema,
    response: activityLogListSchema,
    permission: 'activity.read',
  }),
};
