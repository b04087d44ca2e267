import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fileListSchema, fileObjectSchema, type FileObject } from '../../contract';
import { api, apiText, apiVoid, withQuery } from '../../lib/http';

/*
 * The file endpoints (pterodactyl-facts §9.3 files/*). Every key under ['files'] comes from
 * fileQueries; mutations invalidate a server's listings by prefix once they settle (a delete that
 * fails half-way has still deleted something).
 */

const base = (uuid: string) => `/api/client/servers/${encodeURIComponent(uuid)}/files`;

export const fileQueries = {
  all: () => ['files'] as const,
  server: (uuid: string) => [...fileQueries.all(), uuid] as const,
  lists: (uuid: string) => [...fileQueries.server(uuid), 'list'] as const,
  /** Every entry of a directory: no page size, no cap (the list is virtualised). */
  list: (uuid: string, directory: string) =>
    queryOptions({
      queryKey: [...fileQueries.lists(uuid), directory] as const,
      queryFn: ({ signal }): Promise<FileObject[]> =>
        api(`${base(uuid)}/list`, fileListSchema, { signal, query: { directory } }).then((r) => r.data.map((d) => d.attributes)),
    }),
  contentsAll: (uuid: string) => [...fileQueries.server(uuid), 'contents'] as const,
  /** The raw text of a file; always read afresh when the editor opens it. */
  contents: (uuid: string, file: string) =>
    queryOptions({
      queryKey: [...fileQueries.contentsAll(uuid), file] as const,
      queryFn: ({ signal }) => apiText(`${base(uuid)}/contents`, { signal, query: { file } }),
      staleTime: 0,
      gcTime: 30_000,
      refetchOnMount: 'always',
      refetchOnReconnect: false,
    }),
};

/** The URL that streams a file as an attachment (needs file.read-content). */
export function downloadHref(uuid: string, file: string): string {
  return withQuery(`${base(uuid)}/download`, { file });
}

/** The URL uploads are posted to (multipart, field `files`). */
export function uploadUrl(uuid: string, directory: string): string {
  return withQuery(`${base(uuid)}/upload`, { directory });
}

function useFileMutation<V, R = void>(uuid: string, run: (vars: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => qc.invalidateQueries({ queryKey: fileQueries.lists(uuid) }),
  });
}

export function useCreateFolder(uuid: string) {
  return useFileMutation(uuid, ({ root, name }: { root: string; name: string }) =>
    apiVoid(`${base(uuid)}/create-folder`, { method: 'POST', body: { root, name } }),
  );
}

export function useDeleteFiles(uuid: string) {
  return useFileMutation(uuid, ({ root, files }: { root: string; files: string[] }) =>
    apiVoid(`${base(uuid)}/delete`, { method: 'POST', body: { root, files } }),
  );
}

export function useRenameFiles(uuid: string) {
  return useFileMutation(uuid, ({ root, files }: { root: string; files: { from: string; to: string }[] }) =>
    apiVoid(`${base(uuid)}/rename`, { method: 'PUT', body: { root, files } }),
  );
}

export function useCopyFile(uuid: string) {
  return useFileMutation(uuid, ({ location }: { location: string }) => apiVoid(`${base(uuid)}/copy`, { method: 'POST', body: { location } }));
}

export function useCompressFiles(uuid: string) {
  return useFileMutation(uuid, ({ root, files }: { root: string; files: string[] }) =>
    api(`${base(uuid)}/compress`, fileObjectSchema, { method: 'POST', body: { root, files } }).then((r) => r.attributes),
  );
}

export function useDecompressFile(uuid: string) {
  return useFileMutation(uuid, ({ root, file }: { root: string; file: string }) =>
    apiVoid(`${base(uuid)}/decompress`, { method: 'POST', body: { root, file } }),
  );
}

/** Writes a whole file (raw body); the cached contents become the saved text. */
export function useWriteFile(uuid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, content }: { file: string; content: string }) =>
      apiVoid(`${base(uuid)}/write`, { method: 'POST', query: { file }, body: content, contentType: 'text/plain' }),
    onSuccess: (_r, { file, content }) => qc.setQueryData(fileQueries.contents(uuid, file).queryKey, content),
    onSettled: () => qc.invalidateQueries({ queryKey: fileQueries.lists(uuid) }),
  });
}
