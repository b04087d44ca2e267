import { errorDocumentSchema } from '../../contract/errors';
import { ApiError, readCookie } from '../../lib/http';

/*
 * Uploads go through XMLHttpRequest because fetch reports no upload progress. Same headers as
 * lib/http: X-Requested-With, and the XSRF token from the cookie for a state-changing request.
 */

export interface UploadHandle {
  done: Promise<void>;
  abort: () => void;
}

async function ensureXsrf(): Promise<string | undefined> {
  if (!readCookie('XSRF-TOKEN')) {
    await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
  }
  return readCookie('XSRF-TOKEN');
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
  if (status === 413) return new ApiError(413, [{ code: 'PayloadTooLarge', status: '413', detail: 'The file is larger than the panel accepts.' }]);
  return new ApiError(status, [{ code: 'HttpError', status: String(status), detail: `The upload failed (${status || 'network error'}).` }]);
}

/** Posts one file as multipart field `files`; `onProgress` gets 0..1. Rejects with ApiError, or an AbortError. */
export function uploadFile(url: string, file: File, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  let aborted = false;
  const done = (async () => {
    const xsrf = await ensureXsrf();
    if (aborted) throw new DOMException('Upload cancelled.', 'AbortError');
    await new Promise<void>((resolve, reject) => {
      xhr.open('POST', url);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
      if (xsrf) xhr.setRequestHeader('X-XSRF-TOKEN', xsrf);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve();
        } else reject(toUploadError(xhr.status, xhr.responseText));
      };
      xhr.onerror = () => reject(toUploadError(0, ''));
      xhr.onabort = () => reject(new DOMException('Upload cancelled.', 'AbortError'));
      const form = new FormData();
      form.append('files', file, file.name);
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
