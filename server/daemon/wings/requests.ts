import * as z from 'zod/mini';

/*
 * The bodies the panel sends to a Wings node (peers.md §4.3), as zod schemas: Aerie's node parses
 * what it is sent with them, and the panel's Wings client builds its requests from the types. The
 * limits are Wings' own where it has them, else bounds no honest panel reaches.
 */

const uuid = z.string().check(z.regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/));
const path = z.string().check(z.maxLength(4096));
const names = z.array(path).check(z.minLength(1), z.maxLength(10_000));

/** `POST /api/servers`: Wings then pulls the configuration and install script from the panel. */
export const createServerRequest = z.object({ uuid, start_on_completion: z.optional(z.boolean()) });
export type CreateServerRequest = z.infer<typeof createServerRequest>;

/** `POST /api/servers/:uuid/power`; `wait_seconds` outside 0–300 means 30, as Wings. */
export const powerRequest = z.object({
  action: z.enum(['start', 'stop', 'restart', 'kill']),
  wait_seconds: z.optional(z.number()),
});
export type PowerRequest = z.infer<typeof powerRequest>;

/** `POST /api/servers/:uuid/commands`. */
export const commandsRequest = z.object({ commands: z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(100)) });
export type CommandsRequest = z.infer<typeof commandsRequest>;

/** `POST /api/servers/:uuid/ws/deny`: websocket token ids to refuse from now on. */
export const denyRequest = z.object({ jtis: z.array(z.string().check(z.maxLength(128))).check(z.maxLength(1000)) });
export type DenyRequest = z.infer<typeof denyRequest>;

/** `GET /api/servers/:uuid/logs?size=` (1–100, default 100). */
export const logsQuery = z.object({ size: z.optional(z.string()) });

/** `GET /files/list-directory?directory=` */
export const directoryQuery = z.object({ directory: z._default(path, '/') });
/** `GET /files/contents?file=[&download=1]` and `POST /files/write?file=` */
export const fileQuery = z.object({ file: path, download: z.optional(z.string()) });
export type FileQuery = z.infer<typeof fileQuery>;

/** `POST /files/create-directory` */
export const createDirectoryRequest = z.object({ name: path, path: z._default(path, '/') });
export type CreateDirectoryRequest = z.infer<typeof createDirectoryRequest>;

/** `PUT /files/rename` (422 for an empty list). */
export const renameRequest = z.object({
  root: z._default(path, '/'),
  files: z.array(z.object({ from: path, to: path })).check(z.minLength(1), z.maxLength(10_000)),
});
export type RenameRequest = z.infer<typeof renameRequest>;

/** `POST /files/copy` */
export const copyRequest = z.object({ location: path });
export type CopyRequest = z.infer<typeof copyRequest>;

/** `POST /files/delete` and `POST /files/compress` (422 for an empty list). */
export const filesRequest = z.object({ root: z._default(path, '/'), files: names });
export type FilesRequest = z.infer<typeof filesRequest>;

/** `POST /files/decompress` */
export const decompressRequest = z.object({ root: z._default(path, '/'), file: path });
export type DecompressRequest = z.infer<typeof decompressRequest>;

/** `POST /files/chmod` (Aerie's node has no chmod capability; the schema is for the client). */
export const chmodRequest = z.object({
  root: z._default(path, '/'),
  files: z.array(z.object({ file: path, mode: z.string().check(z.regex(/^[0-7]{3,4}$/)) })).check(z.minLength(1)),
});
export type ChmodRequest = z.infer<typeof chmodRequest>;

/** `POST /backup`: `ignore` is `.pteroignore` lines joined by newlines. */
export const backupRequest = z.object({
  adapter: z.enum(['wings', 's3']),
  uuid,
  ignore: z._default(z.string().check(z.maxLength(32 * 1024)), ''),
});
export type BackupRequest = z.infer<typeof backupRequest>;

/** `POST /backup/:backup/restore`; `download_url` only for the s3 adapter. */
export const restoreRequest = z.object({
  adapter: z.enum(['wings', 's3']),
  truncate_directory: z._default(z.boolean(), false),
  download_url: z.optional(z.string()),
});
export type RestoreRequest = z.infer<typeof restoreRequest>;

/** `POST /api/servers/:server/transfer`: the source streams the server to `url` with `token` as its Authorization header. */
export const transferRequest = z.object({
  url: z.string().check(z.minLength(1), z.maxLength(2048)),
  token: z.string().check(z.minLength(1), z.maxLength(8192)),
  server: z.optional(z.object({ uuid: z.optional(uuid), start_on_completion: z.optional(z.boolean()) })),
});
export type TransferRequest = z.infer<typeof transferRequest>;
