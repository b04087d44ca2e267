import { ApiError } from '../../lib/http';
import type { UploadTarget } from './api';
import { t } from './messages';
import { sendChunked, type ChunkControl } from './upload-chunks';
import { abortError, sendUploadRequest } from './upload-request';

export { UPLOAD_IDLE_MS, toUploadError } from './upload-request';

/*
 * Each file goes to a link the panel signed for it on the server's node: as one multipart body,
 * as to Wings, or in resumable chunks when the link says the node takes them (`chunk_bytes`) and
 * the file is bigger than one chunk (`upload-chunks.ts`).
 */

export interface UploadHandle {
  done: Promise<void>;
  abort: () => void;
}

/** Whole MiB, or to one decimal (the message formats the number in the language shown). */
const mebibytes = (bytes: number) => Number((bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1));

/** The refusal for a file bigger than the server's whole disk limit. */
export function overDiskError(diskBytes: number): ApiError {
  return new ApiError(400, [
    {
      code: 'InsufficientDiskSpaceException',
      status: '400',
      detail: t('files.upload.overDisk', { size: mebibytes(diskBytes) }),
    },
  ]);
}

/** The refusal for a file over the node's limit, said before a byte is sent (issue 22 #5). */
export function tooLargeError(maxBytes: number, sftpAddress: string | undefined): ApiError {
  const size = mebibytes(maxBytes);
  const detail = sftpAddress ? t('files.upload.overLimit', { size, address: sftpAddress }) : t('files.upload.overLimitNoSftp', { size });
  return new ApiError(413, [{ code: 'PayloadTooLarge', status: '413', detail }]);
}

/**
 * Uploads one file to the link `link()` gives; `onProgress` gets 0..1. A file over the limit the
 * link states is refused before anything is sent, unless the node takes it in chunks.
 * Rejects with ApiError, or an AbortError.
 */
export function uploadFile(
  link: () => Promise<UploadTarget>,
  file: File,
  onProgress: (fraction: number) => void,
  limits: { sftpAddress?: string; diskBytes?: number } = {},
): UploadHandle {
  const control: ChunkControl = { xhr: null, aborted: false };
  const done = (async () => {
    // No way around the disk limit (SFTP counts against it too), so no link is even asked for.
    if (limits.diskBytes !== undefined && file.size > limits.diskBytes) throw overDiskError(limits.diskBytes);
    const { url, maxFileBytes, chunkBytes } = await link();
    if (control.aborted) throw abortError();
    if (chunkBytes !== undefined && file.size > chunkBytes) return sendChunked({ url, chunkBytes }, file, onProgress, control);
    if (maxFileBytes !== undefined && file.size > maxFileBytes) throw tooLargeError(maxFileBytes, limits.sftpAddress);
    const form = new FormData();
    form.append('files', file, file.name);
    control.xhr = new XMLHttpRequest();
    await sendUploadRequest(control.xhr, { method: 'POST', url, body: form, onProgress: (loaded, total) => onProgress(loaded / total) });
    onProgress(1);
  })();
  return {
    done,
    abort: () => {
      control.aborted = true;
      control.xhr?.abort();
    },
  };
}
