import { z } from 'zod';

/*
 * Request bodies of spec §4 with the limits of §8. Where the spec says "not shown", the reference
 * panel's rules are used (pterodactyl-facts §9). The server validates with these; the SPA's forms
 * use the same schemas so a rule lives in one place.
 */

/** A path inside a server volume as the client sends it; hostility is judged by the daemon. */
export const volumePath = z
  .string()
  .max(4096, 'The path may not be greater than 4096 characters.')
  .refine((s) => !s.includes('\0'), 'The path may not contain NUL bytes.');

/** A directory that defaults to the volume root when absent, null or empty. */
const rootPath = volumePath
  .nullish()
  .transform((s) => (s === null || s === undefined || s === '' ? '/' : s));

const fileList = z
  .array(volumePath.min(1, 'A file name may not be empty.'))
  .min(1, 'The files field is required.')
  .max(10_000, 'No more than 10000 files may be given at once.');

// §4.3
export const subuserCreateSchema = z.object({
  email: z
    .string({ error: 'The email field is required.' })
    .min(1, 'The email must be between 1 and 191 characters.')
    .max(191, 'The email must be between 1 and 191 characters.')
    .pipe(z.email('The email must be a valid email address.')),
  permissions: z
    .array(z.string().max(64), { error: 'The permissions field is required.' })
    .min(1, 'The permissions field is required.')
    .max(200),
});
export type SubuserCreate = z.infer<typeof subuserCreateSchema>;

export const subuserUpdateSchema = subuserCreateSchema.pick({ permissions: true });

// §4.5
export const passwordUpdateSchema = z
  .object({
    current_password: z.string({ error: 'The current password field is required.' }).min(1, 'The current password field is required.').max(1024),
    password: z
      .string({ error: 'The password field is required.' })
      .min(8, 'The password must be at least 8 characters.')
      .max(1024, 'The password may not be greater than 1024 characters.'),
    password_confirmation: z.string({ error: 'The password confirmation field is required.' }).max(1024),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: 'The password confirmation does not match.',
  });
export type PasswordUpdate = z.infer<typeof passwordUpdateSchema>;

// §4.6
export const compressSchema = z.object({ root: rootPath, files: fileList });
export type CompressRequest = z.infer<typeof compressSchema>;

// §4.7
export const allocationNotesSchema = z.object({
  notes: z
    .string()
    .max(256, 'The notes may not be greater than 256 characters.')
    .nullable()
    .transform((s) => s ?? ''),
});

// §4.8 (name 1-191 as the reference panel; an absent description is left unchanged)
export const renameServerSchema = z.object({
  name: z
    .string({ error: 'The name field is required.' })
    .trim()
    .min(1, 'The name field is required.')
    .max(191, 'The name may not be greater than 191 characters.'),
  description: z
    .string()
    .max(2000, 'The description may not be greater than 2000 characters.')
    .nullable()
    .optional(),
});
export type RenameServer = z.infer<typeof renameServerSchema>;

// §4.9
export const commandSchema = z.object({
  command: z
    .string({ error: 'The command field is required.' })
    .trim()
    .min(1, 'The command field is required.')
    .max(4096, 'The command may not be greater than 4096 characters.'),
});

// §4.10 (image reference rule of the reference panel)
export const dockerImageSchema = z.object({
  docker_image: z
    .string({ error: 'The docker image field is required.' })
    .min(1, 'The docker image field is required.')
    .max(191, 'The docker image may not be greater than 191 characters.')
    .regex(/^[\w#./\- ]*\|?~?[\w./\-:@ ]*$/, 'The docker image format is invalid.'),
});

// §4.11
export const deleteFilesSchema = z.object({ root: rootPath, files: fileList });

// §4.12
export const createFolderSchema = z.object({
  root: rootPath,
  name: volumePath.min(1, 'The name field is required.'),
});

// §4.13
export const restoreBackupSchema = z.object({
  truncate: z.boolean({ error: 'The truncate field must be true or false.' }),
});

// §4.14
export const copyFileSchema = z.object({ location: volumePath.min(1, 'The location field is required.') });

// §4.15
export const sshKeyRemoveSchema = z.object({
  fingerprint: z.string({ error: 'The fingerprint field is required.' }).min(1, 'The fingerprint field is required.').max(191),
});

export const sshKeyCreateSchema = z.object({
  name: z.string({ error: 'The name field is required.' }).trim().min(1, 'The name field is required.').max(191),
  public_key: z.string({ error: 'The public key field is required.' }).trim().min(1, 'The public key field is required.').max(16_384),
});

// files/rename and files/decompress (reference panel names)
export const renameFilesSchema = z.object({
  root: rootPath,
  files: z
    .array(z.object({ from: volumePath.min(1, 'The from field is required.'), to: volumePath.min(1, 'The to field is required.') }))
    .min(1, 'The files field is required.')
    .max(10_000),
});
export const decompressSchema = z.object({ root: rootPath, file: volumePath.min(1, 'The file field is required.') });

// backups (reference panel names; used by the backups issue)
export const createBackupSchema = z.object({
  name: z.string().trim().max(191, 'The name may not be greater than 191 characters.').nullish(),
  is_locked: z.boolean().nullish(),
  ignored: z.string().max(65_535).nullish(),
});
