import * as z from 'zod/mini';

/*
 * Request bodies of spec §4 with the limits of §8. Where the spec says "not shown", the reference
 * panel's rules are used (pterodactyl-facts §9). The server validates with these; the SPA's forms
 * use the same schemas so a rule lives in one place.
 */

const text = (required: string) => z.string({ error: required });

/** A path inside a server volume as the client sends it; hostility is judged by the daemon. */
export const volumePath = z.string().check(
  z.maxLength(4096, 'The path may not be greater than 4096 characters.'),
  z.refine((s) => !s.includes('\0'), 'The path may not contain NUL bytes.'),
);
const requiredPath = (message: string) =>
  z.string({ error: message }).check(
    z.minLength(1, message),
    z.maxLength(4096, 'The path may not be greater than 4096 characters.'),
    z.refine((s) => !s.includes('\0'), 'The path may not contain NUL bytes.'),
  );

/** A directory that defaults to the volume root when absent, null or empty. */
const rootPath = z.pipe(
  z.nullish(volumePath),
  z.transform((s) => (s === null || s === undefined || s === '' ? '/' : s)),
);

const fileList = z
  .array(requiredPath('A file name may not be empty.'), { error: 'The files field is required.' })
  .check(z.minLength(1, 'The files field is required.'), z.maxLength(10_000, 'No more than 10000 files may be given at once.'));

// §4.3
export const subuserCreateSchema = z.object({
  email: text('The email field is required.').check(
    z.minLength(1, 'The email must be between 1 and 191 characters.'),
    z.maxLength(191, 'The email must be between 1 and 191 characters.'),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'The email must be a valid email address.'),
  ),
  permissions: z
    .array(z.string().check(z.maxLength(64)), { error: 'The permissions field is required.' })
    .check(z.minLength(1, 'The permissions field is required.'), z.maxLength(200)),
});
export type SubuserCreate = z.infer<typeof subuserCreateSchema>;
export const subuserUpdateSchema = z.pick(subuserCreateSchema, { permissions: true });

// §4.5
export const passwordUpdateSchema = z
  .object({
    current_password: text('The current password field is required.').check(
      z.minLength(1, 'The current password field is required.'),
      z.maxLength(1024),
    ),
    password: text('The password field is required.').check(
      z.minLength(8, 'The password must be at least 8 characters.'),
      z.maxLength(1024, 'The password may not be greater than 1024 characters.'),
    ),
    password_confirmation: text('The password confirmation field is required.').check(z.maxLength(1024)),
  })
  .check(
    z.refine((b) => b.password === b.password_confirmation, {
      path: ['password_confirmation'],
      message: 'The password confirmation does not match.',
    }),
  );
export type PasswordUpdate = z.infer<typeof passwordUpdateSchema>;

// §4.6
export const compressSchema = z.object({ root: rootPath, files: fileList });
export type CompressRequest = z.infer<typeof compressSchema>;

// §4.7: the key must be present; null clears the notes.
export const allocationNotesSchema = z.object({
  notes: z.pipe(
    z.nullable(text('The notes field must be present.').check(z.maxLength(256, 'The notes may not be greater than 256 characters.'))),
    z.transform((s) => s ?? ''),
  ),
});

// §4.8 (name 1-191 as the reference panel; an absent description is left unchanged)
export const renameServerSchema = z.object({
  name: text('The name field is required.').check(
    z.trim(),
    z.minLength(1, 'The name field is required.'),
    z.maxLength(191, 'The name may not be greater than 191 characters.'),
  ),
  description: z.optional(z.nullable(z.string().check(z.maxLength(2000, 'The description may not be greater than 2000 characters.')))),
});
export type RenameServer = z.infer<typeof renameServerSchema>;

// §4.9
export const commandSchema = z.object({
  command: text('The command field is required.').check(
    z.trim(),
    z.minLength(1, 'The command field is required.'),
    z.maxLength(4096, 'The command may not be greater than 4096 characters.'),
  ),
});

// §4.10 (image reference rule of the reference panel)
export const dockerImageSchema = z.object({
  docker_image: text('The docker image field is required.').check(
    z.minLength(1, 'The docker image field is required.'),
    z.maxLength(191, 'The docker image may not be greater than 191 characters.'),
    z.regex(/^[\w#./\- ]*\|?~?[\w./\-:@ ]*$/, 'The docker image format is invalid.'),
  ),
});

// §4.11
export const deleteFilesSchema = z.object({ root: rootPath, files: fileList });

// §4.12
export const createFolderSchema = z.object({ root: rootPath, name: requiredPath('The name field is required.') });

// §4.13
export const restoreBackupSchema = z.object({ truncate: z.boolean({ error: 'The truncate field must be true or false.' }) });

// §4.14
export const copyFileSchema = z.object({ location: requiredPath('The location field is required.') });

// §4.15
export const sshKeyRemoveSchema = z.object({
  fingerprint: text('The fingerprint field is required.').check(z.minLength(1, 'The fingerprint field is required.'), z.maxLength(191)),
});

export const sshKeyCreateSchema = z.object({
  name: text('The name field is required.').check(z.trim(), z.minLength(1, 'The name field is required.'), z.maxLength(191)),
  public_key: text('The public key field is required.').check(z.trim(), z.minLength(1, 'The public key field is required.'), z.maxLength(16_384)),
});

// files/rename and files/decompress (reference panel names)
export const renameFilesSchema = z.object({
  root: rootPath,
  files: z
    .array(z.object({ from: requiredPath('The from field is required.'), to: requiredPath('The to field is required.') }), {
      error: 'The files field is required.',
    })
    .check(z.minLength(1, 'The files field is required.'), z.maxLength(10_000)),
});
export const decompressSchema = z.object({ root: rootPath, file: requiredPath('The file field is required.') });

// backups (reference panel names; used by the backups issue)
export const createBackupSchema = z.object({
  name: z.nullish(z.string().check(z.trim(), z.maxLength(191, 'The name may not be greater than 191 characters.'))),
  is_locked: z.nullish(z.boolean()),
  ignored: z.nullish(z.string().check(z.maxLength(65_535))),
});
