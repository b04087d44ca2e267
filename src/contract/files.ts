import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list, optionalListMetaSchema } from './envelope';
import { requiredPath, rootPath, timestamp } from './fields';

// One directory entry.
export const fileObjectAttributes = z.object({
  name: z.string(),
  mode: z.string(),
  mode_bits: z.string(),
  size: z.int(),
  is_file: z.boolean(),
  is_symlink: z.boolean(),
  mimetype: z.string(),
  created_at: timestamp,
  modified_at: timestamp,
});
export const fileObjectSchema = item('file_object', fileObjectAttributes);
export type FileObject = z.infer<typeof fileObjectAttributes>;
export const fileListSchema = list(fileObjectSchema, optionalListMetaSchema);

/** A link to the node's own transfer endpoint, signed for one user, one server and a short while. */
export const signedUrlSchema = item('signed_url', z.object({ url: z.string() }));
/**
 * The upload link. `max_file_bytes` and `chunk_bytes` are Aerie's optional extras (a real panel
 * leaves them out). `max_file_bytes`: the largest file the node takes in one request, so the SPA
 * can refuse a bigger one before sending it. `chunk_bytes`: the node also takes resumable uploads
 * in chunks of at most this size on the same link (server/README.md, "Chunked uploads"), so a
 * bigger file is sent that way instead.
 */
export const uploadUrlSchema = item(
  'signed_url',
  z.object({ url: z.string(), max_file_bytes: z.optional(z.int().check(z.positive())), chunk_bytes: z.optional(z.int().check(z.positive())) }),
);

/** The node's answer to the start of a chunked upload (`POST <upload link>` with `{name, size}`): Aerie's extension. */
export const chunkedUploadStartSchema = z.object({
  upload_id: z.string().check(z.minLength(1)),
  offset: z.int(),
  chunk_bytes: z.int().check(z.positive()),
});
/** The node's answer to a chunk, or to `Content-Range: bytes *\/size` (where the upload stands). */
export const chunkedUploadOffsetSchema = z.object({ offset: z.int().check(z.nonnegative()), complete: z.boolean() });

// files/list, files/contents, files/write, files/download (reference panel names)
export const directoryQuerySchema = z.object({
  directory: z.pipe(
    z.optional(z.string().check(z.maxLength(4096))),
    z.transform((s) => (s === undefined || s === '' ? '/' : s)),
  ),
});
export const fileQuerySchema = z.object({
  file: z.string({ error: 'The file field is required.' }).check(z.minLength(1, 'The file field is required.'), z.maxLength(4096)),
});

const fileList = z
  .array(requiredPath('A file name may not be empty.'), { error: 'The files field is required.' })
  .check(z.minLength(1, 'The files field is required.'), z.maxLength(10_000, 'No more than 10000 files may be given at once.'));

// Compressing files of one directory into an archive.
export const compressSchema = z.object({ root: rootPath, files: fileList });
export type CompressRequest = z.infer<typeof compressSchema>;

// Deleting files of one directory.
export const deleteFilesSchema = z.object({ root: rootPath, files: fileList });

// Creating a folder in a directory.
export const createFolderSchema = z.object({ root: rootPath, name: requiredPath('The name field is required.') });

// Copying a file next to itself.
export const copyFileSchema = z.object({ location: requiredPath('The location field is required.') });

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

const files = '/api/client/servers/:server/files';

/** The file manager's endpoints, with the reference panel's permission for each. */
export const fileEndpoints = {
  list: endpoint({ method: 'GET', path: `${files}/list`, query: directoryQuerySchema, response: fileListSchema, permission: 'file.read' }),
  /** The raw text of a file, not JSON. */
  contents: endpoint({ method: 'GET', path: `${files}/contents`, query: fileQuerySchema, response: 'text', permission: 'file.read-content' }),
  /** The raw body is the new content; file.create even when overwriting, as the reference panel. */
  write: endpoint({ method: 'POST', path: `${files}/write`, query: fileQuerySchema, body: 'raw', response: 'empty', permission: 'file.create' }),
  copy: endpoint({ method: 'POST', path: `${files}/copy`, body: copyFileSchema, response: 'empty', permission: 'file.create' }),
  delete: endpoint({ method: 'POST', path: `${files}/delete`, body: deleteFilesSchema, response: 'empty', permission: 'file.delete' }),
  createFolder: endpoint({ method: 'POST', path: `${files}/create-folder`, body: createFolderSchema, response: 'empty', permission: 'file.create' }),
  compress: endpoint({ method: 'POST', path: `${files}/compress`, body: compressSchema, response: fileObjectSchema, permission: 'file.archive' }),
  // The reference panel guards decompress with file.create, not file.archive.
  decompress: endpoint({ method: 'POST', path: `${files}/decompress`, body: decompressSchema, response: 'empty', permission: 'file.create' }),
  rename: endpoint({ method: 'PUT', path: `${files}/rename`, body: renameFilesSchema, response: 'empty', permission: 'file.update' }),
  /** A single-use, 15-minute link to download one file from the node. */
  download: endpoint({
    method: 'GET',
    path: `${files}/download`,
    query: fileQuerySchema,
    response: signedUrlSchema,
    permission: 'file.read-content',
  }),
  /** A single-use, 15-minute link to upload into the server (multipart, field `files`, `&directory=`). */
  upload: endpoint({ method: 'GET', path: `${files}/upload`, response: uploadUrlSchema, permission: 'file.create' }),
};
