import * as z from 'zod/mini';
import { item, list, paginatedMetaSchema } from './envelope';
import { nullableString, timestamp } from './fields';

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
export const backupListSchema = list(backupSchema, z.extend(paginatedMetaSchema, { backup_count: z.optional(z.int()) }));

// POST backups (reference panel names)
export const createBackupSchema = z.object({
  name: z.nullish(z.string().check(z.trim(), z.maxLength(191, 'The name may not be greater than 191 characters.'))),
  is_locked: z.nullish(z.boolean()),
  ignored: z.nullish(z.string().check(z.maxLength(65_535))),
});

// Restoring a backup; `truncate` deletes every file first.
export const restoreBackupSchema = z.object({ truncate: z.boolean({ error: 'The truncate field must be true or false.' }) });
