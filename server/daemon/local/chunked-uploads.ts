import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DaemonError, noSpaceError } from '../types';
import type { FileWriter } from './file-writer';
import type { LocalFiles } from './files';
import { cleanName, display, resolveBeneath } from './paths';

/*
 * Resumable uploads in chunks, for files past what one request may carry (worlds are bigger than
 * the per-request limit, and proxies cut large bodies). An upload is started with the signed
 * upload link, which it spends; its chunks then go in order, each with the same link and the
 * upload's id, and each is written at its offset into one file in the receive area (a piecewise
 * writer, `file-writer.ts`: charged to the disk limit before each piece, placed by one rename
 * under the server's lock once the last byte is in, with the limit checked again then). A chunk
 * cut short by the network keeps what arrived; the client asks for the offset and goes on from
 * there. An upload idle for IDLE_MS, or older than MAX_AGE_MS, is dropped; the receive area is
 * emptied when the daemon starts (`Volumes.sweep`), so one from before a restart is gone too.
 */

/** The largest chunk a client sends (the SPA's size); never more than one request may carry. */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** The chunk size of a node whose requests may carry `maxUploadBytes`. */
export const chunkBytesFor = (maxUploadBytes: number): number => Math.max(1, Math.min(CHUNK_BYTES, maxUploadBytes));

/** An upload with no chunk for this long is dropped (the upload link's own lifetime). */
export const IDLE_MS = 15 * 60_000;
/** Uploads one server may have open at once: each holds a file handle and a reservation. */
export const MAX_PER_SERVER = 16;
/** However much it progresses, an upload is dropped after this long. */
export const MAX_AGE_MS = 24 * 60 * 60_000;

/** Who may send an upload's chunks: the server and the link (its `unique_id`) that started it. */
export interface UploadOwner {
  server: string;
  tokenId: string;
  user: string;
}

interface Session {
  owner: UploadOwner;
  directory: string;
  name: string;
  size: number;
  /** Bytes written, in order from 0: where the next chunk starts. */
  offset: number;
  writer: FileWriter;
  startedAt: number;
  lastAt: number;
  busy: boolean;
}

export interface ChunkResult {
  offset: number;
  /** Set once the file is placed: its folder (as displayed) and name. */
  stored?: { directory: string; name: string };
}

const unknownUpload = (): DaemonError =>
  new DaemonError('not_found', 'This upload is no longer on the node: it finished, sat idle too long, or the node restarted. Start it again.');

export class ChunkedUploads {
  private readonly sessions = new Map<string, Session>();
  readonly chunkBytes: number;

  constructor(
    private readonly files: Pick<LocalFiles, 'openWrite' | 'limits'>,
    private readonly options: { now: () => Date; maxChunkBytes: number; idleMs?: number; maxAgeMs?: number },
  ) {
    this.chunkBytes = chunkBytesFor(options.maxChunkBytes);
  }

  /** Opens an upload of `size` bytes to `name` in `directory`; refused as a write there would be. Returns its id. */
  async start(owner: UploadOwner, directory: string, rawName: string, size: number): Promise<string> {
    await this.sweep();
    const open = [...this.sessions.values()].filter((s) => s.owner.server === owner.server).length;
    if (open >= MAX_PER_SERVER)
      throw new DaemonError('conflict', `This server already has ${MAX_PER_SERVER} uploads in progress. Wait for one to finish.`);
    const name = cleanName(path.posix.basename(rawName));
    if (!name) throw new DaemonError('bad_request', 'The uploaded file name is not allowed.');
    const folder = resolveBeneath([], directory);
    // Refused before a byte is sent; what is left is checked as the chunks arrive, and again at the end.
    const { bytes } = await this.files.limits(owner.server);
    if (bytes > 0 && size > bytes) throw noSpaceError();
    const writer = await this.files.openWrite(owner.server, display([...folder, name]), { maxBytes: size, keep: false });
    const id = randomBytes(16).toString('hex');
    const at = this.options.now().getTime();
    this.sessions.set(id, { owner, directory: display(folder), name, size, offset: 0, writer, startedAt: at, lastAt: at, busy: false });
    return id;
  }

  /** The upload `id` if `owner` started it; one of another server or link is as unknown as a missing one. */
  private sessionOf(id: string, owner: UploadOwner): Session {
    const session = this.sessions.get(id);
    if (!session || session.owner.server !== owner.server || session.owner.tokenId !== owner.tokenId) throw unknownUpload();
    return session;
  }

  /** When the upload `id` started: its link is checked as of then, so it may outlive the link while it progresses. */
  startedAt(id: string): Date | undefined {
    const session = this.sessions.get(id);
    return session ? new Date(session.startedAt) : undefined;
  }

  /** Where the next chunk starts. */
  offset(id: string, owner: UploadOwner): number {
    return this.sessionOf(id, owner).offset;
  }

  /**
   * Writes the chunk `body` of bytes `start`..`end` (inclusive) of a file of `total` bytes. It must
   * start where the last one ended (`conflict` otherwise: the client asks for the offset); the
   * last one places the file.
   */
  async chunk(id: string, owner: UploadOwner, range: { start: number; end: number; total: number }, body: Readable): Promise<ChunkResult> {
    const session = this.sessionOf(id, owner);
    if (range.total !== session.size) throw new DaemonError('bad_request', `This upload is of ${session.size} bytes, not ${range.total}.`);
    if (range.end - range.start + 1 > this.chunkBytes) throw new DaemonError('too_large', `A chunk may carry at most ${this.chunkBytes} bytes.`);
    if (session.busy) throw new DaemonError('conflict', 'Another chunk of this upload is being received.');
    if (range.start !== session.offset) throw new DaemonError('conflict', `This upload goes on at byte ${session.offset}, not ${range.start}.`);
    session.busy = true;
    try {
      const limit = range.end + 1;
      for await (const piece of body as AsyncIterable<Buffer>) {
        if (session.offset + piece.length > limit) throw new DaemonError('bad_request', 'The chunk is longer than its Content-Range.');
        try {
          await session.writer.write(piece, session.offset);
        } catch (error) {
          // Over the limit, or a failed write: the writer stores nothing from here, so the upload is over.
          await this.drop(id);
          throw error;
        }
        session.offset += piece.length;
        session.lastAt = this.options.now().getTime();
      }
    } finally {
      session.busy = false;
    }
    if (session.offset < session.size) return { offset: session.offset };
    this.sessions.delete(id);
    // The limit is checked again, with the real size, as the file is placed (under the server's lock).
    await session.writer.close();
    return { offset: session.offset, stored: { directory: session.directory, name: session.name } };
  }

  private async drop(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    await session?.writer.abort();
  }

  /** Drops the uploads idle past IDLE_MS or older than MAX_AGE_MS (their received bytes with them). */
  async sweep(): Promise<void> {
    const at = this.options.now().getTime();
    const idle = this.options.idleMs ?? IDLE_MS;
    const maxAge = this.options.maxAgeMs ?? MAX_AGE_MS;
    for (const [id, s] of this.sessions) {
      if (!s.busy && (at - s.lastAt > idle || at - s.startedAt > maxAge)) await this.drop(id);
    }
  }

  /** Drops every upload (the node is shutting down). */
  async close(): Promise<void> {
    for (const id of [...this.sessions.keys()]) await this.drop(id);
  }

  /** Uploads in progress (tests). */
  get size(): number {
    return this.sessions.size;
  }
}
