import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FileCapability } from '../capabilities';
import { DaemonError, NOT_FOUND_MESSAGE, type DaemonFileStat, type ExtractLimits, type UploadPart } from '../types';
import { readBounded, tooLargeAnswer } from './bounded';
import { spooled } from './spool';
import { wingsListingSchema, wingsStatSchema } from './responses';
import { LONG_TIMEOUT_MS, serverPath, type WingsTransport } from './transport';
import type { CopyRequest, CreateDirectoryRequest, DecompressRequest, FilesRequest, RenameRequest } from './requests';

/*
 * The file manager over Wings' `files/*` routes (peers.md §4.3). Wings resolves every path beneath
 * the server's root itself and answers an escape as a missing file, as the local node does.
 */

const tooLarge = () => new DaemonError('too_large', 'The file is larger than the allowed size.');

export class WingsFiles implements FileCapability {
  constructor(private readonly http: WingsTransport) {}

  list(server: string, directory: string): Promise<DaemonFileStat[]> {
    return this.http.json({ method: 'GET', path: serverPath(server, '/files/list-directory'), query: { directory } }, wingsListingSchema);
  }

  async read(server: string, file: string, maxBytes: number): Promise<Buffer> {
    const response = await this.http.send({ method: 'GET', path: serverPath(server, '/files/contents'), query: { file } });
    try {
      return await readBounded(response, maxBytes);
    } catch (error) {
      throw error === tooLargeAnswer ? tooLarge() : this.http.unavailable(error);
    }
  }

  /** Wings' contents route carries no stat: the parent's listing gives it (a download is rare enough). */
  async open(server: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }> {
    const name = path.posix.basename(path.posix.normalize(`/${file}`));
    const entries = await this.list(server, path.posix.dirname(path.posix.normalize(`/${file}`)));
    const stat = entries.find((e) => e.name === name);
    if (!stat || !stat.isFile) throw new DaemonError('not_found', NOT_FOUND_MESSAGE);
    const response = await this.http.send({ method: 'GET', path: serverPath(server, '/files/contents'), query: { file, download: '1' } });
    // A download goes at the reader's pace: no idle deadline on it.
    response.setTimeout(0);
    return { stat: { ...stat, size: Number(response.headers['content-length'] ?? stat.size) }, stream: response };
  }

  async write(server: string, file: string, content: Buffer | Readable, options: { maxBytes: number }): Promise<void> {
    if (Buffer.isBuffer(content)) {
      if (content.length > options.maxBytes) throw tooLarge();
      return this.sendFile(server, file, { stream: Readable.from([content]), length: content.length });
    }
    // Wings needs the length first; a body of unknown length is received whole (on disk) before it is sent.
    await spooled(content, options.maxBytes, tooLarge, (body) => this.sendFile(server, file, body));
  }

  /**
   * All or nothing, as the local node: each part is written through `files/write` under a hidden
   * name beside its target, and only when every part has arrived are the targets replaced (Wings'
   * rename refuses an existing destination: those are deleted just before). A failure deletes the
   * hidden parts and leaves every file that was there as it was.
   */
  async upload(server: string, directory: string, files: AsyncIterable<UploadPart>, options: { maxBytes: number }): Promise<string[]> {
    const staged: { from: string; to: string }[] = [];
    // Once replaced files are deleted, the hidden parts are the only copy: kept whatever happens next.
    let replacing = false;
    // Not `.aerie-*`: the node keeps those names for its own files and refuses them.
    const stage = `.uploading-${randomUUID().slice(0, 8)}-`;
    try {
      for await (const part of files) {
        const name = path.posix.basename(part.filename.replaceAll('\\', '/'));
        if (name === '' || name === '.' || name === '..' || name.includes('\0')) {
          part.stream.resume();
          throw new DaemonError('bad_request', 'The uploaded file name is not allowed.');
        }
        const from = `${stage}${staged.length}`;
        await this.write(server, path.posix.join(directory, from), part.stream, options);
        staged.push({ from, to: name });
      }
      if (staged.length === 0) throw new DaemonError('bad_request', 'No file was uploaded.');
      // A name uploaded twice keeps its last part, as the local node's.
      const last = new Map(staged.map((move) => [move.to, move]));
      const moves = [...last.values()];
      const superseded = staged.filter((move) => last.get(move.to) !== move).map((move) => move.from);
      const replaced = await this.existing(
        server,
        directory,
        moves.map((move) => move.to),
      );
      replacing = true;
      if (replaced.length > 0 || superseded.length > 0) await this.delete(server, directory, [...replaced, ...superseded]);
      await this.http.empty({
        method: 'PUT',
        path: serverPath(server, '/files/rename'),
        json: { root: directory, files: moves } satisfies RenameRequest,
      });
      return staged.map((move) => move.to);
    } catch (error) {
      if (staged.length > 0 && !replacing) {
        await this.delete(
          server,
          directory,
          staged.map((move) => move.from),
        ).catch(() => undefined);
      }
      throw error;
    }
  }

  /** Wings answers no name: it is the one Wings' `findCopySuffix` picks, from the listing before. */
  async copy(server: string, location: string): Promise<string> {
    const clean = path.posix.normalize(`/${location}`);
    const existing = new Set((await this.list(server, path.posix.dirname(clean))).map((e) => e.name));
    await this.http.empty({ method: 'POST', path: serverPath(server, '/files/copy'), json: { location } satisfies CopyRequest });
    return copyName(path.posix.basename(clean), existing);
  }

  /** Wings does not say which of the files existed: they are looked up first (the activity log names only those). */
  async delete(server: string, root: string, files: string[]): Promise<string[]> {
    const existed = await this.existing(server, root, files);
    await this.http.empty({ method: 'POST', path: serverPath(server, '/files/delete'), json: { root, files } satisfies FilesRequest });
    return existed;
  }

  async createDirectory(server: string, root: string, name: string): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, '/files/create-directory'),
      json: { name, path: root } satisfies CreateDirectoryRequest,
    });
  }

  /** Wings skips a missing source silently: the sources are looked up first, to answer the pairs moved. */
  async rename(server: string, root: string, files: { from: string; to: string }[]): Promise<{ from: string; to: string }[]> {
    const existed = new Set(
      await this.existing(
        server,
        root,
        files.map((f) => f.from),
      ),
    );
    await this.http.empty({ method: 'PUT', path: serverPath(server, '/files/rename'), json: { root, files } satisfies RenameRequest });
    return files.filter((f) => existed.has(f.from));
  }

  /** Wings names the archive itself (`archive-<time>.tar.gz`) and answers its stat; its 409 is disk space. */
  async compress(server: string, root: string, files: string[], _now: Date, options: { signal?: AbortSignal } = {}): Promise<DaemonFileStat> {
    return this.http.json(
      {
        method: 'POST',
        path: serverPath(server, '/files/compress'),
        json: { root, files } satisfies FilesRequest,
        timeoutMs: LONG_TIMEOUT_MS,
        statusKinds: { 409: 'no_space' },
      },
      wingsStatSchema,
      options.signal,
    );
  }

  /** Wings applies its own extraction limits (the server's disk space); `limits` is the local node's. */
  async decompress(server: string, root: string, file: string, _options: { limits?: Partial<ExtractLimits> } = {}): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, '/files/decompress'),
      json: { root, file } satisfies DecompressRequest,
      timeoutMs: LONG_TIMEOUT_MS,
    });
  }

  /** Which of `names` (beneath `root`) exist, each path once, as given: one listing per parent folder. */
  private async existing(server: string, root: string, names: string[]): Promise<string[]> {
    const paths = new Map<string, string>();
    for (const name of names) {
      const full = path.posix.join('/', root, name);
      if (full !== '/' && !paths.has(full)) paths.set(full, name);
    }
    const parents = new Map<string, Promise<Set<string>>>();
    const listed = (dir: string) => {
      let held = parents.get(dir);
      if (!held) {
        held = this.list(server, dir).then(
          (entries) => new Set(entries.map((e) => e.name)),
          () => new Set<string>(),
        );
        parents.set(dir, held);
      }
      return held;
    };
    const found: string[] = [];
    for (const [full, name] of paths) if ((await listed(path.posix.dirname(full))).has(path.posix.basename(full))) found.push(name);
    return found;
  }

  private async sendFile(server: string, file: string, body: { stream: Readable; length: number }): Promise<void> {
    await this.http.empty({ method: 'POST', path: serverPath(server, '/files/write'), query: { file }, body });
  }
}

/** Wings' copy name (`server/filesystem/filesystem.go`, findCopySuffix): `a copy.txt`, `a copy 1.txt`, … ; `.tar.gz` kept whole. */
export function copyName(base: string, existing: ReadonlySet<string>): string {
  let extension = path.posix.extname(base);
  let name = base.slice(0, base.length - extension.length);
  if (name.endsWith('.tar')) {
    extension = `.tar${extension}`;
    name = name.slice(0, -4);
  }
  for (let i = 0; i <= 50; i++) {
    const candidate = `${name}${i === 0 ? ' copy' : ` copy ${i}`}${extension}`;
    if (!existing.has(candidate)) return candidate;
  }
  return `${name}copy.${new Date().toISOString()}${extension}`;
}
