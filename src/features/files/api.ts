import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fileEndpoints, type FileObject } from '../../contract/files';
import type { EndpointBodyInput } from '../../contract/endpoint';
import { call } from '../../lib/http';
import { followLink } from '../../lib/follow-link';

/** Compressing, extracting or saving a large file can rightly take minutes. */
const LONG_TIMEOUT_MS = 10 * 60_000;
import { serverQueries, type ServerRef } from '../servers/api';

/*
 * The file endpoints. Keys sit under the server's key root
 * (['server', routeId, 'files', …]) and come only from fileQueries; mutations invalidate the
 * server's listings by prefix once they settle (a delete that fails half-way has still deleted
 * something).
 */

export const fileQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'files'] as const,
  lists: (server: ServerRef) => [...fileQueries.all(server), 'list'] as const,
  /** Every entry of a directory: no page size, no cap (the list is virtualised). */
  list: (server: ServerRef, directory: string) =>
    queryOptions({
      queryKey: [...fileQueries.lists(server), directory] as const,
      queryFn: ({ signal }): Promise<FileObject[]> =>
        call(fileEndpoints.list, { signal, params: { server: server.uuid }, query: { directory } }).then((r) => r.data.map((d) => d.attributes)),
    }),
  contentsAll: (server: ServerRef) => [...fileQueries.all(server), 'contents'] as const,
  /** The raw text of a file; always read afresh when the editor opens it. */
  contents: (server: ServerRef, file: string) =>
    queryOptions({
      queryKey: [...fileQueries.contentsAll(server), file] as const,
      queryFn: ({ signal }) => call(fileEndpoints.contents, { signal, params: { server: server.uuid }, query: { file } }),
      staleTime: 0,
      gcTime: 30_000,
      refetchOnMount: 'always',
      refetchOnReconnect: false,
    }),
};

/*
 * Downloads and uploads go to the server's node, as with Wings: the panel hands out a link signed
 * for this user and server, good for one use within 15 minutes, and the browser follows it. A
 * link is asked for at the moment it is used, never kept.
 */

/** A link to the node that answers with the file as an attachment (needs file.read-content). */
export async function downloadLink(uuid: string, file: string): Promise<string> {
  const signed = await call(fileEndpoints.download, { params: { server: uuid }, query: { file } });
  return signed.attributes.url;
}

export interface UploadTarget {
  url: string;
  /** The largest file the node takes, when the panel says (Aerie does, a real panel does not). */
  maxFileBytes: number | undefined;
  /** The node also takes resumable uploads in chunks of at most this size (Aerie's node; not Wings). */
  chunkBytes?: number;
}

/** A link to post one upload to (multipart, field `files`, or the start of a chunked upload), into `directory`. */
export async function uploadLink(uuid: string, directory: string): Promise<UploadTarget> {
  const { url, max_file_bytes, chunk_bytes } = (await call(fileEndpoints.upload, { params: { server: uuid } })).attributes;
  return {
    url: `${url}${url.includes('?') ? '&' : '?'}directory=${encodeURIComponent(directory)}`,
    maxFileBytes: max_file_bytes,
    chunkBytes: chunk_bytes,
  };
}

/**
 * Downloads a file: the browser follows the node's link, which answers with an attachment, so the
 * page stays where it is. A refusal (a missing file, no permission) shows as a toast.
 */
export function useDownloadFile(server: ServerRef) {
  return useMutation({
    mutationFn: async (file: string) => followLink(await downloadLink(server.uuid, file)),
    meta: { toastErrors: true },
  });
}

type Body<K extends keyof typeof fileEndpoints> = EndpointBodyInput<(typeof fileEndpoints)[K]>;
/** Dialogs pass the signal their Cancel aborts. */
type Abortable = { signal?: AbortSignal };

/** Listings refresh once a change settles, success or not (a half-done delete still deleted). */
function useRefreshLists(server: ServerRef) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: fileQueries.lists(server) });
}

export function useCreateFolder(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: ({ signal, ...body }: Body<'createFolder'> & Abortable) =>
      call(fileEndpoints.createFolder, { params: { server: server.uuid }, body, signal }),
    onSettled,
  });
}

export function useDeleteFiles(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: ({ signal, ...body }: Body<'delete'> & Abortable) => call(fileEndpoints.delete, { params: { server: server.uuid }, body, signal }),
    onSettled,
  });
}

export function useRenameFiles(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: ({ signal, ...body }: Body<'rename'> & Abortable) => call(fileEndpoints.rename, { params: { server: server.uuid }, body, signal }),
    onSettled,
  });
}

export function useCopyFile(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({ mutationFn: (body: Body<'copy'>) => call(fileEndpoints.copy, { params: { server: server.uuid }, body }), onSettled });
}

export function useCompressFiles(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: (body: Body<'compress'>) =>
      call(fileEndpoints.compress, { params: { server: server.uuid }, body, timeoutMs: LONG_TIMEOUT_MS }).then((r) => r.attributes),
    onSettled,
  });
}

export function useDecompressFile(server: ServerRef) {
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: (body: Body<'decompress'>) => call(fileEndpoints.decompress, { params: { server: server.uuid }, body, timeoutMs: LONG_TIMEOUT_MS }),
    onSettled,
  });
}

/** Writes a whole file (raw body); the cached contents become the saved text. */
export function useWriteFile(server: ServerRef) {
  const qc = useQueryClient();
  const onSettled = useRefreshLists(server);
  return useMutation({
    mutationFn: ({ file, content, signal }: { file: string; content: string } & Abortable) =>
      call(fileEndpoints.write, { params: { server: server.uuid }, query: { file }, body: content, signal, timeoutMs: LONG_TIMEOUT_MS }),
    onSuccess: (_r, { file, content }) => qc.setQueryData(fileQueries.contents(server, file).queryKey, content),
    onSettled,
  });
}
