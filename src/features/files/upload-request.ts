import { errorDocumentSchema } from '../../contract/errors';
import { parseJsonOrUndefined } from '../../lib/json';
import { ApiError } from '../../lib/http';
import { t } from './messages';

/*
 * One request of an upload, through XMLHttpRequest because fetch reports no upload progress. The
 * link is the credential, so no cookie or CSRF header goes along (a node may be another origin).
 */

/**
 * A request fails once nothing has moved for this long: no bytes sent, no answer. A large file on
 * a slow line keeps going for as long as it makes progress; a stalled one says so.
 */
export const UPLOAD_IDLE_MS = 2 * 60_000;

export function toUploadError(status: number, body: string): ApiError {
  const json = parseJsonOrUndefined(body);
  const doc = errorDocumentSchema.safeParse(json);
  if (doc.success) return new ApiError(status, doc.data.errors);
  // A Wings node answers `{error: "..."}`.
  if (typeof json === 'object' && json !== null && 'error' in json && typeof json.error === 'string') {
    return new ApiError(status, [{ code: 'DaemonError', status: String(status), detail: json.error }]);
  }
  if (status === 413) return new ApiError(413, [{ code: 'PayloadTooLarge', status: '413', detail: t('files.upload.panelLimit') }]);
  return new ApiError(status, [
    { code: 'HttpError', status: String(status), detail: status ? t('files.upload.failedStatus', { status }) : t('files.upload.failedNetwork') },
  ]);
}

export const stalledError = (): ApiError =>
  new ApiError(0, [
    {
      code: 'Timeout',
      status: '0',
      detail: t('files.upload.stalled', { minutes: UPLOAD_IDLE_MS / 60_000 }),
    },
  ]);

export const abortError = (): DOMException => new DOMException('Upload cancelled.', 'AbortError');

export interface UploadRequest {
  method: 'POST' | 'PUT';
  url: string;
  body: XMLHttpRequestBodyInit | null;
  headers?: Record<string, string>;
  /** Bytes of the body sent so far, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * Sends one request on `xhr`; resolves with the answer's body when it is a 2xx, rejects with the
 * refusal (ApiError; status 0 for a network error or a stall) or an AbortError after `xhr.abort()`.
 */
export function sendUploadRequest(xhr: XMLHttpRequest, request: UploadRequest): Promise<string> {
  let stalled = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const stillMoving = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = true;
      xhr.abort();
    }, UPLOAD_IDLE_MS);
  };
  return new Promise<string>((resolve, reject) => {
    xhr.open(request.method, request.url);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      stillMoving();
      if (e.lengthComputable && e.total > 0) request.onProgress?.(e.loaded, e.total);
    };
    xhr.onprogress = stillMoving;
    xhr.onloadend = () => clearTimeout(idle);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.responseText);
      else reject(toUploadError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(toUploadError(0, ''));
    xhr.onabort = () => reject(stalled ? stalledError() : abortError());
    stillMoving();
    xhr.send(request.body);
  });
}
