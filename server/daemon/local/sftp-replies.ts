import type { Stats } from 'node:fs';
import ssh2, { type Attributes } from 'ssh2';
import { DaemonError } from '../types';

/* The file manager's answers in SFTP's terms: attributes, `ls -l` lines and status codes. */

const { STATUS_CODE } = ssh2.utils.sftp;

export const TYPE_BITS = { dir: 0o040000, link: 0o120000, file: 0o100000 };

export function attrsOf(st: Stats): Attributes {
  return { mode: st.mode, uid: st.uid, gid: st.gid, size: st.size, atime: Math.floor(st.atimeMs / 1000), mtime: Math.floor(st.mtimeMs / 1000) };
}

export function longname(name: string, attrs: Attributes): string {
  const type = (attrs.mode & 0o170000) === TYPE_BITS.dir ? 'd' : (attrs.mode & 0o170000) === TYPE_BITS.link ? 'l' : '-';
  let bits = '';
  for (let i = 0; i < 9; i += 1) bits += attrs.mode & (1 << (8 - i)) ? 'rwxrwxrwx'[i] : '-';
  const date = new Date(attrs.mtime * 1000).toISOString().slice(0, 10);
  return `${type}${bits} 1 container container ${String(attrs.size).padStart(8)} ${date} ${name}`;
}

/** The status a refusal answers with; the file manager's message goes with it. */
export function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof DaemonError) {
    if (error.kind === 'not_found') return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' };
    if (error.kind === 'no_space' || error.kind === 'too_large') return { code: STATUS_CODE.FAILURE, message: 'Quota exceeded' };
    return { code: STATUS_CODE.FAILURE, message: error.message };
  }
  return { code: STATUS_CODE.FAILURE, message: 'Failure' };
}

/** A request refused with a status of its own, rather than the file manager's message. */
export class Refused extends Error {
  constructor(readonly code: number) {
    super('refused');
  }
}
export const denied = () => new Refused(STATUS_CODE.PERMISSION_DENIED);
