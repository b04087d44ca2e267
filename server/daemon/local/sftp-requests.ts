import path from 'node:path';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import { DaemonError } from '../types';
import { attrsOf, denied, Refused, statusOf } from './sftp-replies';
import type { Handle, Session } from './sftp-session';

/* The SFTP requests a session answers, each one done by the file manager under the session's permissions. */

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** The most one READ returns (clients ask for 32 KiB to 256 KiB). */
const MAX_READ = 256 * 1024;
const DIR_BATCH = 100;

/** Wires the subsystem: every request answers once, a failure is a status, never a crash. */
export function serveSftp(session: Session, sftp: SFTPWrapper): void {
  const { files } = session.options;
  const server = session.grant.server;
  const run = (reqId: number, work: () => Promise<void>) => {
    if (session.closed) return;
    session.turn(work).catch((error: unknown) => {
      if (session.closed) return;
      if (error instanceof Refused) return void sftp.status(reqId, error.code);
      if (!(error instanceof DaemonError)) session.options.log('sftp request failed', error);
      const { code, message } = statusOf(error);
      sftp.status(reqId, code, message);
    });
  };
  sftp.on('error', () => session.end());
  // The client is done (EOF): close the channel, as OpenSSH waits for that before it exits.
  sftp.on('end', () => sftp.end());
  sftp.on('OPEN', (reqId, filename, flags) =>
    run(reqId, async () => {
      const file = session.path(filename);
      session.roomForHandle();
      const writing = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND)) !== 0;
      if (!writing) {
        session.need('file.read-content');
        const { handle } = await files.openHandle(server, file);
        if (session.closed) return void handle.close();
        return void sftp.handle(reqId, session.add({ kind: 'read', file: handle, path: file }));
      }
      if (flags & OPEN_MODE.READ) throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
      const current = await session.exists(file);
      if (!current && !(flags & OPEN_MODE.CREAT)) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
      if (current && flags & OPEN_MODE.EXCL) throw new DaemonError('bad_request', 'The file exists already.');
      session.need(current ? 'file.update' : 'file.create');
      const keep = current !== null && !(flags & OPEN_MODE.TRUNC);
      const writer = await files.openWrite(server, file, { maxBytes: Number.MAX_SAFE_INTEGER, keep });
      if (session.closed) return void writer.abort();
      sftp.handle(reqId, session.add({ kind: 'write', writer, path: file, created: current === null }));
    }),
  );
  sftp.on('READ', (reqId, id, offset, length) =>
    run(reqId, async () => {
      const handle = session.handle(id);
      if (handle.kind !== 'read') throw new Refused(STATUS_CODE.FAILURE);
      // Permissions are read again on every use: one dropped since the OPEN applies at once.
      session.need('file.read-content');
      const buffer = Buffer.allocUnsafe(Math.min(length, MAX_READ));
      const { bytesRead } = await handle.file.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) return void sftp.status(reqId, STATUS_CODE.EOF);
      sftp.data(reqId, buffer.subarray(0, bytesRead));
    }),
  );
  sftp.on('WRITE', (reqId, id, offset, data) =>
    run(reqId, async () => {
      const handle = session.handle(id);
      if (handle.kind !== 'write') throw new Refused(STATUS_CODE.FAILURE);
      if (!session.mayWrite(handle)) throw denied();
      await handle.writer.write(data, offset);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('CLOSE', (reqId, id) =>
    run(reqId, async () => {
      const handle = session.detach(id);
      if (handle.kind === 'read') await handle.file.close();
      if (handle.kind === 'dir') session.unlist(handle);
      if (handle.kind === 'write') {
        if (!session.mayWrite(handle)) {
          await handle.writer.abort();
          throw denied();
        }
        await handle.writer.close();
        session.record(handle.created ? 'server:sftp.create' : 'server:sftp.write', handle.path);
      }
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  const stat = (reqId: number, input: string) =>
    run(reqId, async () => {
      session.need('file.read');
      sftp.attrs(reqId, attrsOf(await files.stat(server, session.path(input))));
    });
  // Links are never followed: STAT answers for the link itself, as LSTAT does.
  sftp.on('STAT', stat);
  sftp.on('LSTAT', stat);
  sftp.on('FSTAT', (reqId, id) =>
    run(reqId, async () => {
      const handle = session.handle(id);
      if (handle.kind === 'read') return void sftp.attrs(reqId, attrsOf(await handle.file.stat()));
      throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
    }),
  );
  const setstat = async (file: string, attrs: Attributes) => {
    session.need('file.update');
    if (attrs.size !== undefined) throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
    if (attrs.mode !== undefined) await files.chmod(server, file, attrs.mode);
  };
  sftp.on('SETSTAT', (reqId, input, attrs) =>
    run(reqId, async () => {
      await setstat(session.path(input), attrs);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('FSETSTAT', (reqId, id, attrs) =>
    run(reqId, async () => {
      const handle = session.handle(id);
      // The file being written is placed at CLOSE; its mode is the replaced file's or 0644.
      if (handle.kind === 'write') return void sftp.status(reqId, STATUS_CODE.OK);
      if (handle.kind !== 'read') throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
      await setstat(handle.path, attrs);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('OPENDIR', (reqId, input) =>
    run(reqId, async () => {
      session.need('file.read');
      session.roomForHandle();
      const handle: Handle = { kind: 'dir', entries: await session.list(session.path(input)) };
      if (session.closed) return void session.unlist(handle);
      sftp.handle(reqId, session.add(handle));
    }),
  );
  sftp.on('READDIR', (reqId, id) =>
    run(reqId, async () => {
      const handle = session.handle(id);
      if (handle.kind !== 'dir') throw new Refused(STATUS_CODE.FAILURE);
      session.need('file.read');
      if (handle.entries.length === 0) return void sftp.status(reqId, STATUS_CODE.EOF);
      sftp.name(reqId, session.unlist(handle, DIR_BATCH));
    }),
  );
  // REMOVE takes a file, RMDIR an empty directory; both are one delete in the file manager.
  const remove = (reqId: number, input: string, directory: boolean) =>
    run(reqId, async () => {
      session.need('file.delete');
      const target = session.path(input);
      if (directory && target === '/') throw denied();
      const st = await session.exists(target);
      if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
      if (st.isDirectory() !== directory) {
        throw new DaemonError('bad_request', directory ? 'The path is not a directory.' : 'The path is a directory.');
      }
      if (directory && (await files.list(server, target)).length > 0) {
        throw new DaemonError('bad_request', 'The directory is not empty.');
      }
      await files.delete(server, '/', [target]);
      session.record('server:sftp.delete', target);
      sftp.status(reqId, STATUS_CODE.OK);
    });
  sftp.on('REMOVE', (reqId, input) => remove(reqId, input, false));
  sftp.on('RMDIR', (reqId, input) => remove(reqId, input, true));
  sftp.on('MKDIR', (reqId, input) =>
    run(reqId, async () => {
      session.need('file.create');
      const dir = session.path(input);
      await files.createDirectory(server, '/', dir);
      session.record('server:sftp.create-directory', dir);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('RENAME', (reqId, fromInput, toInput) =>
    run(reqId, async () => {
      session.need('file.update');
      const from = session.path(fromInput);
      const to = session.path(toInput);
      const moved = await files.rename(server, '/', [{ from, to }]);
      if (moved.length === 0) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
      session.record('server:sftp.rename', { from, to });
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('REALPATH', (reqId, input) =>
    run(reqId, async () => {
      // `cd ..` at the top stays at the top, as on any server's root.
      const resolved = session.path(path.posix.normalize(`/${input}`));
      sftp.name(reqId, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }]);
    }),
  );
  // Links are the tenant's own business inside the volume, never the node's: not read, never made.
  sftp.on('READLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
  sftp.on('SYMLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
  sftp.on('EXTENDED', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
}
