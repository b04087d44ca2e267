import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import { isErrno, MAX_DEPTH, type Dir, type Volume } from './confined';
import { writeAll } from './parts';
import { isTempName, MAX_PATH_BYTES } from './paths';
import { BLOCK, blocksFor, type Budget } from './quota';
import { DaemonError, type ExtractLimits } from '../types';

/*
 * The confined writer for archive members. Member names are judged as hostile strings:
 * NUL and control characters, backslashes (a Windows separator in zips, refused rather than
 * guessed at), absolute names and any `..` component refuse the whole archive; `.` components
 * and empty segments are dropped. Only files and directories are written, through directory
 * handles below a fresh staging directory, with O_NOFOLLOW; counts and sizes are capped by the
 * declared sizes before writing and by the bytes actually written while streaming. The server's
 * disk quota is checked the same two ways: a member whose declared size does not fit is refused
 * before it is written, and every chunk and new directory is charged before it lands.
 */

export const refused = (why: string): DaemonError => new DaemonError('bad_request', `The archive cannot be extracted: ${why}.`);

/**
 * The components of a member name. With `posixNames` (a backup: names the node itself read from a
 * volume) backslashes and control characters are kept, as a Linux volume may hold them; only NUL
 * is refused, with every other check.
 */
export function memberComponents(raw: string, posixNames = false): string[] {
  if (posixNames ? raw.includes('\0') : [...raw].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f' || c === '\\'))
    throw refused('a member name contains a control character or a backslash');
  if (raw.startsWith('/') || (!posixNames && /^[A-Za-z]:/.test(raw))) throw refused('a member name is an absolute path');
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) throw refused('a member name is too long');
  const out: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw refused('a member name leaves the target directory');
    if (isTempName(part)) throw refused("a member name is reserved for the daemon's temporary files");
    if (Buffer.byteLength(part) > 255) throw refused('a member name has a component longer than 255 bytes');
    out.push(part);
  }
  if (out.length > MAX_DEPTH) throw refused('a member is nested too deeply');
  return out;
}

export class ExtractSink {
  /** Symlink members are made (a transfer); otherwise they refuse the archive. */
  links = false;
  private entries = 0;
  private declared = 0;
  private written = 0;
  /** Open directories along the path of the last member (archives group members by directory). */
  private chain: Dir[] = [];
  /** Files whose replacement was credited already: a name twice in an archive replaces one file. */
  private readonly credited = new Set<string>();

  constructor(
    private readonly vol: Volume,
    private readonly stage: Dir,
    private readonly limits: ExtractLimits,
    private readonly budget: Budget,
    /** What the file a member lands on gives back when it is replaced (a restore's credit); none: nothing is credited. */
    private readonly replaced?: (components: readonly string[]) => Promise<number>,
    private readonly posixNames = false,
  ) {}

  /** The components of a member name (`memberComponents`, with this extraction's rule for names). */
  components(raw: string): string[] {
    return memberComponents(raw, this.posixNames);
  }

  /**
   * Counts one member against the entry cap and its declared size against the size cap and the
   * quota; a file member (`file`: its components) first credits the file it will replace, if any.
   */
  async count(declaredSize: number, file?: readonly string[]): Promise<void> {
    if (file && this.replaced && !this.credited.has(file.join('/'))) {
      this.credited.add(file.join('/'));
      this.budget.credit(await this.replaced(file));
    }
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) throw refused(`it has more than ${this.limits.maxEntries} entries`);
    this.declared += declaredSize;
    if (this.declared > this.limits.maxBytes) throw refused(`it expands to more than ${this.limits.maxBytes} bytes`);
    // Every member is a new entry of at least one block, empty or not.
    await this.budget.ensure(Math.max(blocksFor(declaredSize), BLOCK), 1);
  }

  /** The open directory `components` below the staging directory, created when missing. */
  async directory(components: readonly string[]): Promise<Dir> {
    let keep = 0;
    while (keep < this.chain.length && keep < components.length && this.chain[keep]?.components.at(-1) === components[keep]) keep += 1;
    for (const dir of this.chain.splice(keep)) await dir.close();
    let parent = keep === 0 ? this.stage : (this.chain[keep - 1] as Dir);
    for (let i = keep; i < components.length; i += 1) {
      const name = components[i] as string;
      try {
        await fs.mkdir(parent.at(name), 0o755);
        // Charged once made (an EEXIST costs nothing); a refusal removes it with the staging tree.
        await this.budget.newDirectory();
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
      }
      try {
        parent = await this.vol.openChildDir(parent, name);
      } catch (error) {
        if (isErrno(error, 'ENOTDIR', 'ELOOP')) throw refused('a member is both a file and a directory');
        throw error;
      }
      this.chain.push(parent);
    }
    return parent;
  }

  async file(components: readonly string[], mode: number | undefined, mtime: Date | undefined, data: AsyncIterable<Buffer>): Promise<void> {
    const name = components.at(-1);
    if (name === undefined) throw refused('a file member has no name');
    const dir = await this.directory(components.slice(0, -1));
    const perm = mode ? (mode & 0o755) | 0o600 : 0o644; // never setuid/setgid/sticky
    let handle;
    try {
      handle = await this.vol.openFileAt(dir, name, C.O_WRONLY | C.O_CREAT | C.O_TRUNC, perm);
    } catch (error) {
      if (isErrno(error, 'EISDIR', 'ELOOP')) throw refused('a member is both a file and a directory');
      throw error;
    }
    try {
      const meter = await this.budget.fileMeter();
      for await (const chunk of data) {
        this.written += chunk.length;
        if (this.written > this.limits.maxBytes) throw refused(`it expands to more than ${this.limits.maxBytes} bytes`);
        await meter(chunk.length);
        await writeAll(handle, chunk);
      }
      if (mtime && !Number.isNaN(mtime.getTime())) await handle.utimes(mtime, mtime);
    } finally {
      await handle.close();
    }
  }

  /**
   * A symlink member (a transfer's volume, `links`): its target must stay in the tree by its own
   * words, climbing with leading `..` no higher than the root and never after a name (which may be
   * a link itself, to `.`), and not be absolute. The link is made, never followed.
   */
  async symlink(components: readonly string[], target: string): Promise<void> {
    const name = components.at(-1);
    if (name === undefined) throw refused('a link member has no name');
    const parts = target.split('/').filter((part) => part !== '' && part !== '.');
    const ups = parts.findIndex((part) => part !== '..');
    const climbs = ups === -1 ? parts.length : ups;
    if (!target || target.includes('\0') || target.startsWith('/') || climbs > components.length - 1 || parts.slice(climbs).includes('..'))
      throw refused(`link ${JSON.stringify(components.join('/'))} points outside the archive`);
    const dir = await this.directory(components.slice(0, -1));
    try {
      await fs.symlink(target, dir.at(name));
    } catch (error) {
      if (isErrno(error, 'EEXIST')) throw refused(`member ${JSON.stringify(components.join('/'))} is in the archive twice`);
      throw error;
    }
  }

  async close(): Promise<void> {
    for (const dir of this.chain.splice(0)) await dir.close();
  }
}
