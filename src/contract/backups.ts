import * as z from 'zod/mini';
import { endpoint, SERVER_ROUTE_PREFIX } from './endpoint';
import { item, list, paginatedMetaSchema } from './envelope';
import { nullableString, pageNumber, perPage, timestamp } from './fields';
import { signedUrlSchema } from './files';

// A backup of a server.
export const backupAttributes = z.object({
  uuid: z.uuid(),
  is_successful: z.boolean(),
  is_locked: z.boolean(),
  name: z.string(),
  ignored_files: z.array(z.string()),
  checksum: nullableString,
  bytes: z.int(),
  created_at: timestamp,
  completed_at: z.nullable(timestamp),
});
export const backupSchema = item('backup', backupAttributes);
export type Backup = z.infer<typeof backupAttributes>;
/**
 * The create throttle as it stands (an Aerie extra; a reference panel sends none and the SPA then
 * learns of the throttle from the 429): `limit` backups per `period` seconds, and when the next
 * may start, null when one may start now. Absent when the panel has no throttle.
 */
export const backupThrottleSchema = z.object({ limit: z.int(), period: z.int(), available_at: z.nullable(timestamp) });
export type BackupThrottleState = z.infer<typeof backupThrottleSchema>;
export const backupListSchema = list(
  backupSchema,
  z.extend(paginatedMetaSchema, { backup_count: z.optional(z.int()), backup_throttle: z.optional(backupThrottleSchema) }),
);

// POST backups (reference panel names)
export const createBackupSchema = z.object({
  name: z.nullish(z.string().check(z.trim(), z.maxLength(191, 'The name may not be greater than 191 characters.'))),
  is_locked: z.nullish(z.boolean()),
  ignored: z.nullish(z.string().check(z.maxLength(65_535))),
});

// Restoring a backup; `truncate` deletes every file first.
export const restoreBackupSchema = z.object({ truncate: z.boolean({ error: 'The truncate field must be true or false.' }) });

// GET backups: 20 per page by default, at most 50 (the reference panel's clamp).
export const backupQuerySchema = z.object({ page: pageNumber, per_page: perPage(20, 50) });
export type BackupQuery = z.infer<typeof backupQuerySchema>;

const backups = `${SERVER_ROUTE_PREFIX}/backups`;

export const backupEndpoints = {
  /** `meta.backup_count`: the backups that have not failed (running or successful); `meta.backup_throttle` (Aerie): the create throttle now. */
  list: endpoint({ method: 'GET', path: backups, query: backupQuerySchema, response: backupListSchema, permission: 'backup.read' }),
  /** 200 with the running backup; 400 at the limit, 429 with Retry-After over the throttle. */
  create: endpoint({ method: 'POST', path: backups, body: createBackupSchema, response: backupSchema, permission: 'backup.create' }),
  detail: endpoint({ method: 'GET', path: `${backups}/:backup`, response: backupSchema, permission: 'backup.read' }),
  /** A toggle; `backup.delete` as the reference panel. */
  lock: endpoint({ method: 'POST', path: `${backups}/:backup/lock`, response: backupSchema, permission: 'backup.delete' }),
  /** The server becomes `restoring_backup` until the node reports the end. */
  restore: endpoint({
    method: 'POST',
    path: `${backups}/:backup/restore`,
    body: restoreBackupSchema,
    response: 'empty',
    permission: 'backup.restore',
  }),
  /** A locked, completed backup cannot be deleted (400). */
  delete: endpoint({ method: 'DELETE', path: `${backups}/:backup`, response: 'empty', permission: 'backup.delete' }),
  /** A single-use, 15-minute link to the archive on the node. */
  download: endpoint({ method: 'GET', path: `${backups}/:backup/download`, response: signedUrlSchema, permission: 'backup.download' }),
};
