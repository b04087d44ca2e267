import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';
import { fileQueries, uploadLink } from './api';
import { t } from './messages';
import { uploadFile, type UploadHandle } from './upload';

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'error';

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  directory: string;
  progress: number;
  status: UploadStatus;
  error: string | null;
}

const CONCURRENCY = 2;
const DONE_LINGER_MS = 4000;

/**
 * The upload queue: two files at a time, per-file progress and errors, cancel per file. Each file
 * is its own request, so one refused file does not lose the others; the listing of the target
 * directory refreshes as each one lands.
 */
export function useUploads(server: ServerRef) {
  const { uuid } = server;
  const qc = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const files = useRef(new Map<number, File>());
  const handles = useRef(new Map<number, UploadHandle>());
  const nextId = useRef(1);
  // Named in the refusal of a file too large for the browser upload.
  const detail = useQuery(serverQueries.detail(server.routeId)).data?.attributes;
  const sftp = detail?.sftp_details;
  // 0 is "no limit" (the reference panel's meaning).
  const diskBytes = detail && detail.limits.disk > 0 ? detail.limits.disk * 1024 * 1024 : undefined;
  const sftpAddress =
    sftp && sftp.port > 0 ? `sftp://${sftp.ip.includes(':') && !sftp.ip.startsWith('[') ? `[${sftp.ip}]` : sftp.ip}:${sftp.port}` : undefined;

  const patch = useCallback((id: number, change: Partial<UploadItem>) => {
    setItems((list) => list.map((it) => (it.id === id ? { ...it, ...change } : it)));
  }, []);

  const add = useCallback((picked: readonly File[], directory: string) => {
    const added = picked.map((file): UploadItem => {
      const id = nextId.current;
      nextId.current += 1;
      files.current.set(id, file);
      return { id, name: file.name, size: file.size, directory, progress: 0, status: 'queued', error: null };
    });
    setItems((list) => [...list, ...added]);
  }, []);

  /** Shows names that cannot be uploaded (dropped folders) as failed items. */
  const reject = useCallback((names: readonly string[], directory: string, message: string) => {
    const added = names.map((name): UploadItem => {
      const id = nextId.current;
      nextId.current += 1;
      return { id, name, size: 0, directory, progress: 0, status: 'error', error: message };
    });
    setItems((list) => [...list, ...added]);
  }, []);

  const remove = useCallback((id: number) => {
    handles.current.get(id)?.abort();
    handles.current.delete(id);
    files.current.delete(id);
    setItems((list) => list.filter((it) => it.id !== id));
  }, []);

  // Start queued uploads while fewer than CONCURRENCY run.
  useEffect(() => {
    const running = items.filter((it) => it.status === 'uploading').length;
    const toStart = items.filter((it) => it.status === 'queued').slice(0, Math.max(0, CONCURRENCY - running));
    for (const item of toStart) {
      const file = files.current.get(item.id);
      // Already started (effects run twice in StrictMode before the status change lands).
      if (!file || handles.current.has(item.id)) continue;
      const handle = uploadFile(
        () => uploadLink(uuid, item.directory),
        file,
        (progress) => patch(item.id, { progress }),
        { sftpAddress, diskBytes },
      );
      handles.current.set(item.id, handle);
      patch(item.id, { status: 'uploading' });
      handle.done
        .then(
          () => {
            patch(item.id, { status: 'done', progress: 1 });
            void qc.invalidateQueries({ queryKey: fileQueries.list(server, item.directory).queryKey });
            setTimeout(() => setItems((list) => list.filter((it) => !(it.id === item.id && it.status === 'done'))), DONE_LINGER_MS);
          },
          (err: unknown) => {
            if (err instanceof DOMException && err.name === 'AbortError') return;
            patch(item.id, { status: 'error', error: err instanceof ApiError ? err.message : t('files.upload.failed') });
          },
        )
        .finally(() => {
          handles.current.delete(item.id);
          files.current.delete(item.id);
        });
    }
  }, [items, server, uuid, qc, patch, sftpAddress, diskBytes]);

  // Abort whatever still runs when the page goes away.
  useEffect(() => {
    const running = handles.current;
    return () => {
      for (const h of running.values()) h.abort();
    };
  }, []);

  return { items, add, reject, remove };
}
