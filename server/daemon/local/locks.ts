import { DaemonError } from '../types';

/*
 * One lock per server, shared by every path that changes the volume and by power actions.
 *
 * - Writes (every file operation that creates, replaces, moves or removes anything, limited or
 *   not) run one at a time, first come first served: the disk budget's "check, then write" may not
 *   be raced by a parallel write, and a later exclusive holder must find the volume at rest. A
 *   body from a client is received before its write takes the lock (into the volume's receive
 *   area, `file-writes.ts`), so a slow uploader holds the lock only to place what it sent.
 * - An exclusive holder (reinstall, restore, delete) is queued behind the writes already waiting,
 *   and from the moment it asks, new writes and power actions are refused at once with `conflict`
 *   rather than queued behind it: a restore can take minutes, and a file saved into a volume that
 *   is about to be replaced would be lost silently.
 * - Power actions do not wait for each other, as in Wings: a second one while one runs is a
 *   `conflict`. They do not wait for writes either (starting a server does not touch its files),
 *   but an exclusive holder waits for a running power action before it starts.
 */

interface ServerLock {
  /** Settles when every write queued so far (and any exclusive holder among them) has finished. */
  tail: Promise<void>;
  /** Why new work is refused while an exclusive holder waits or runs; null when there is none. */
  exclusive: string | null;
  /** Settles when the running power action has finished; null when none runs. */
  power: Promise<void> | null;
  /** Writes, exclusive holders and power actions queued or running; the entry goes at 0. */
  users: number;
}

const settled = (p: Promise<unknown>): Promise<void> =>
  p.then(
    () => undefined,
    () => undefined,
  );

export class ServerLocks {
  private readonly locks = new Map<string, ServerLock>();

  /** Runs a write once the writes queued before it have finished; `conflict` during an exclusive hold. */
  write<T>(server: string, fn: () => Promise<T>): Promise<T> {
    const lock = this.lockOf(server);
    if (lock.exclusive !== null) return Promise.reject(conflict(lock.exclusive));
    const result = lock.tail.then(fn);
    this.enqueue(server, lock, result);
    return result;
  }

  /**
   * Refuses (`conflict`) while an exclusive holder waits or runs: a body about to be received
   * outside the lock is refused at once rather than after it arrived.
   */
  admit(server: string): void {
    const reason = this.locks.get(server)?.exclusive;
    if (reason) throw conflict(reason);
  }

  /**
   * Runs `fn` alone: after the writes queued before it and any running power action, while every
   * new write or power action is refused with `conflict` carrying `reason` (a user-facing sentence
   * such as "The server is being reinstalled."). A second exclusive request is refused the same way.
   */
  exclusive<T>(server: string, reason: string, fn: () => Promise<T>): Promise<T> {
    const lock = this.lockOf(server);
    if (lock.exclusive !== null) return Promise.reject(conflict(lock.exclusive));
    lock.exclusive = reason;
    // Released before the caller's await resumes, so what the caller does next is not refused.
    const result = Promise.all([lock.tail, lock.power])
      .then(fn)
      .finally(() => {
        lock.exclusive = null;
      });
    this.enqueue(server, lock, result);
    return result;
  }

  /** Runs a power action; `conflict` while another one or an exclusive holder runs. */
  power<T>(server: string, fn: () => Promise<T>): Promise<T> {
    const lock = this.lockOf(server);
    if (lock.exclusive !== null) return Promise.reject(conflict(lock.exclusive));
    if (lock.power !== null) return Promise.reject(conflict('Another power action is currently being processed for this server.'));
    const result = Promise.resolve()
      .then(fn)
      .finally(() => {
        lock.power = null;
      });
    lock.power = settled(result);
    this.track(server, lock, lock.power);
    return result;
  }

  /** Settles once the writes and exclusive holders queued so far have finished (nothing new is held up). */
  quiet(server: string): Promise<void> {
    return this.locks.get(server)?.tail ?? Promise.resolve();
  }

  /** True while anything holds or waits for the server's lock (tests, diagnostics). */
  busy(server: string): boolean {
    return this.locks.has(server);
  }

  private lockOf(server: string): ServerLock {
    let lock = this.locks.get(server);
    if (!lock) {
      lock = { tail: Promise.resolve(), exclusive: null, power: null, users: 0 };
      this.locks.set(server, lock);
    }
    return lock;
  }

  private enqueue(server: string, lock: ServerLock, work: Promise<unknown>): void {
    const tail = settled(work);
    lock.tail = tail;
    this.track(server, lock, tail);
  }

  private track(server: string, lock: ServerLock, work: Promise<void>): void {
    lock.users += 1;
    void work.then(() => {
      lock.users -= 1;
      if (lock.users === 0 && this.locks.get(server) === lock) this.locks.delete(server);
    });
  }
}

function conflict(reason: string): DaemonError {
  return new DaemonError('conflict', reason);
}
