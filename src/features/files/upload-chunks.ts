import type * as z from 'zod/mini';
import { chunkedUploadOffsetSchema, chunkedUploadStartSchema } from '../../contract/files';
import { ApiError } from '../../lib/http';
import { parseJsonOrUndefined } from '../../lib/json';
import { t } from './messages';
import { abortError, sendUploadRequest } from './upload-request';

/*
 * A file sent in chunks to a node that advertises them (the upload link's `chunk_bytes`, Aerie's
 * extension; server/daemon/local/upload-chunks.ts): the link starts the upload, then each chunk
 * goes with a Content-Range from the offset the node last confirmed. A chunk that fails on the
 * way (a network error, a stall, a proxy's 5xx) is tried again a few times, each time from the
 * offset the node reports, so nothing it already has is sent twice; a refusal (the disk limit,
 * an expired upload) ends it.
 */

/** Tries of one chunk before the upload fails. */
export const CHUNK_TRIES = 5;
/** The wait before the first retry; doubled for each further one. */
export const RETRY_DELAY_MS = 1000;

export interface ChunkedTarget {
  url: string;
  chunkBytes: number;
}

/** The upload's state, shared with the handle that may abort it. */
export interface ChunkControl {
  xhr: XMLHttpRequest | null;
  aborted: boolean;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const oddAnswer = () => new ApiError(0, [{ code: 'HttpError', status: '0', detail: t('files.upload.oddAnswer') }]);

function parse<S extends z.ZodMiniType>(schema: S, body: string): z.output<S> {
  const parsed = schema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) throw oddAnswer();
  return parsed.data;
}

/** Worth another try: the request did not get a refusal from the node (network, stall, a proxy's 5xx), or lost its place (409). */
const retryable = (error: unknown): boolean => error instanceof ApiError && (error.status === 0 || error.status === 409 || error.status >= 500);

/** Sends `file` in chunks to `target`; `onProgress` gets 0..1 over the whole file. Rejects with ApiError, or an AbortError. */
export async function sendChunked(target: ChunkedTarget, file: File, onProgress: (fraction: number) => void, control: ChunkControl): Promise<void> {
  const request = (req: Parameters<typeof sendUploadRequest>[1]) => {
    if (control.aborted) throw abortError();
    control.xhr = new XMLHttpRequest();
    return sendUploadRequest(control.xhr, req);
  };
  const started = parse(
    chunkedUploadStartSchema,
    await request({
      method: 'POST',
      url: target.url,
      body: JSON.stringify({ name: file.name, size: file.size }),
      headers: { 'Content-Type': 'application/json' },
    }),
  );
  // Never more than the node takes.
  const chunkBytes = Math.min(started.chunk_bytes, target.chunkBytes);
  const url = `${target.url}&upload_id=${encodeURIComponent(started.upload_id)}`;
  let offset = 0;
  let failures = 0;
  for (;;) {
    const end = Math.min(offset + chunkBytes, file.size);
    const from = offset;
    try {
      const answer = parse(
        chunkedUploadOffsetSchema,
        await request({
          method: 'PUT',
          url,
          body: file.slice(from, end),
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Range': `bytes ${from}-${end - 1}/${file.size}` },
          onProgress: (loaded) => onProgress((from + Math.min(loaded, end - from)) / file.size),
        }),
      );
      failures = 0;
      offset = answer.offset;
      onProgress(offset / file.size);
      if (answer.complete) return;
    } catch (error) {
      failures += 1;
      if (!retryable(error) || failures >= CHUNK_TRIES) throw error;
      await wait(RETRY_DELAY_MS * 2 ** (failures - 1));
      // Where the node stands now: it kept whatever arrived of the failed chunk.
      try {
        const asked = await request({ method: 'PUT', url, body: null, headers: { 'Content-Range': `bytes */${file.size}` } });
        offset = parse(chunkedUploadOffsetSchema, asked).offset;
      } catch (lost) {
        if (!retryable(lost)) throw lost;
      }
    }
  }
}
