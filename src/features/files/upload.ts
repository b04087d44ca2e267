import { errorDocumentSchema } from '../../contract/errors';
import { ApiError } from '../../lib/http';
import type { UploadTarget } from './api';

/*
 * Uploads go through XMLHttpRequest because fetch reports no upload progress. Each file goes to a
 * link the panel signed for it on the server's node; the link is the credential, so no cookie or
 * CSRF header goes along (a node may be another origin).
 */

/**
 * An upload fails once nothing has moved for this long: no bytes sent, no answer. A large file on
 * a slow line keeps going for as long as it makes progress; a stalled one says so.
 */
export const UPLOAD_IDLE_MS = 2 * 60_000;

export interface UploadHandle {
  done: Promise<void>;
  abort: () => void;
}

export function toUploadError(status: number, body: string): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const doc = errorDocumentSchema.safeParse(json);
  if (doc.success) return new ApiError(status, doc.data.errors);
  // A Wings node answers `{error: "..."}`.
  if (typeof json === 'object' && json !== null && 'error' in json && typeof json.error === 'string') {
    return new ApiError(status, [{ code: 'DaemonError', status: String(status), detail: json.error }]);
  }
  if (status === 413) return new ApiError(413, [{ code: 'PayloadTooLarge', status: '413', detail: 'The file is larger than the panel accepts.' }]);
  return new ApiError(status, [{ code: 'HttpError', status: String(status), detail: `The upload failed (${status || 'network error'}).` }]);
}

const mebibytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1);

/** The refusal for a file bigger than the server's whole disk limit. */
export function overDiskError(diskBytes: number): ApiError {
  return new ApiError(400, [
    {
      code: 'InsufficientDiskSpaceException',
      status: '400',
      detail: `The file is larger than this server's whole disk limit (${mebibytes(diskBytes)} MiB).`,
    },
  ]);
}

/** The refusal for a file over the node's limit, said before a byte is sent (issue 22 #5). */
export function tooLargeError(maxBytes: number, sftpAddress: string | undefined): ApiError {
  const mib = mebibytes(maxBytes);
  const sftp = sftpAddress ? ` Upload it over SFTP instead (${sftpAddress}).` : ' Upload it over SFTP instead.';
  return new ApiError(413, [{ code: 'PayloadTooLarge', status: '413', detail: `The file is larger than the ${mib} MiB upload limit.${sftp}` }]);
}

/**
 * Posts one file as multipart field `files` to the link `link()` gives; `onProgress` gets 0..1.
 * A file over the limit the link states is refused before anything is sent.
 * Rejects with ApiError, or an AbortError.
 */
export function uploadFile(
  link: () => Promise<UploadTarget>,
  file: File,
  onProgress: (fraction: number) => void,
  limits: { sftpAddress?: string; diskBytes?: number } = {},
): UploadHandle {
  const xhr = new XMLHttpRequest();
  let aborted = false;
  let stalled = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const stillMoving = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = true;
      xhr.abort();
    }, UPLOAD_IDLE_MS);
  };
  const done = (async () => {
    // No way around the disk limit (SFTP counts against it too), so no link is even asked for.
    if (limits.diskBytes !== undefined && file.size > limits.diskBytes) throw overDiskError(limits.diskBytes);
    const { url, maxFileBytes } = await link();
    if (maxFileBytes !== undefined && file.size > maxFileBytes) throw tooLargeError(maxFileBytes, limits.sftpAddress);
    if (aborted) throw new DOMException('Upload cancelled.', 'AbortError');
    await new Promise<void>((resolve, reject) => {
      xhr.open('POST', url);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => {
        stillMoving();
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.onprogress = stillMoving;
      xhr.onloadend = () => clearTimeout(idle);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve();
        } else reject(toUploadError(xhr.status, xhr.responseText));
      };
      xhr.onerror = () => reject(toUploadError(0, ''));
      xhr.onabort = () =>
        reject(
          stalled
            ? new ApiError(0, [
                {
                  code: 'Timeout',
                  status: '0',
                  detail: `The upload stalled: nothing moved for ${UPLOAD_IDLE_MS / 60_000} minutes. Check your connection and try again.`,
                },
              ])
            : new DOMException('Upload cancelled.', 'AbortError'),
        );
      const form = new FormData();
      form.append('files', file, file.name);
      stillMoving();
      xhr.send(form);
    });
  })();
  return {
    done,
    abort: () => {
      aborted = true;
      xhr.abort();
    },
  };
}
