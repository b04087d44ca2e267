import type { ServerCapability } from '../capabilities';
import { isServerUuid, type Configurations } from './configurations';
import type { DaemonEvents, DaemonLog } from './events';
import type { ServerLocks } from './locks';
import type { DiskQuotas } from './quota';
import type { TokenDenylist } from './socket-tokens';
import type { Volumes } from './volumes';

/*
 * A server's life on the local node. Installing a server creates its volume and runs its egg's
 * install script (`install`); a reinstall first stops the server and holds its lock throughout,
 * so nothing writes or starts meanwhile. Both report how they ended on the event channel.
 */
export class LocalServers implements ServerCapability {
  constructor(
    private readonly volumes: Volumes,
    private readonly configurations: Configurations,
    private readonly locks: ServerLocks,
    private readonly quotas: DiskQuotas,
    private readonly events: DaemonEvents,
    private readonly socketTokens: TokenDenylist,
    private readonly log: DaemonLog,
    /** Ends the server's process, if it runs: a reinstall stops it, a delete kills it (Wings). */
    private readonly halt: (server: string, how: 'stop' | 'kill') => Promise<void> = () => Promise.resolve(),
    /** Runs the server's install script, if its egg has one, into its volume; false when it failed. */
    private readonly runScript: (server: string) => Promise<boolean> = () => Promise.resolve(true),
    /** Removes what the node keeps of the server beside its volume: its backups, its last install's output. */
    private readonly removeBackups: (server: string) => Promise<void> = () => Promise.resolve(),
    /** Told first, while the server's consoles are still open (a transferred server's last `transfer status`). */
    private readonly deleting: (server: string) => void = () => undefined,
  ) {}

  async sync(server: string): Promise<void> {
    await this.configurations.sync(server);
  }

  async create(server: string): Promise<void> {
    await this.configurations.get(server);
    await this.install(server, false, (run) => run());
  }

  /**
   * Answers once the reinstall holds the server's lock (a refusal is `conflict` at once); the
   * script, which may download for minutes, runs on and `install.completed` reports its end.
   */
  async reinstall(server: string): Promise<void> {
    await this.configurations.get(server);
    this.locks.admit(server);
    // `install` takes the lock before its first await, so nothing can take it in between.
    void this.install(server, true, (run) => this.locks.exclusive(server, 'The server is currently being reinstalled.', run)).catch(
      (error: unknown) => this.log(`the reinstall of ${server} failed`, error),
    );
  }

  /**
   * Installs (creates the volume) inside `guard` and reports how it ended once `guard` has let go,
   * so a listener that reacts by writing files is not refused by the reinstall's own lock. A
   * refusal before the install started (`conflict`) reports nothing.
   */
  private async install(server: string, reinstall: boolean, guard: (run: () => Promise<void>) => Promise<void>): Promise<void> {
    let started = false;
    let successful = false;
    try {
      await guard(async () => {
        started = true;
        if (reinstall) await this.halt(server, 'stop');
        await this.volumes.create(server);
        successful = await this.runScript(server);
      });
    } catch (error) {
      // Once begun, a failure is the install's outcome, reported below; before, the caller's refusal.
      if (!started) throw error;
      this.log(`the install of ${server} failed`, error);
    } finally {
      if (started) this.events.emit({ type: 'install.completed', server, successful, reinstall });
    }
  }

  /** Idempotent: a server the node never heard of has nothing to remove. */
  async delete(server: string): Promise<void> {
    if (!isServerUuid(server)) return;
    await this.locks.exclusive(server, 'The server is being deleted.', async () => {
      this.deleting(server);
      await this.halt(server, 'kill');
      await this.volumes.remove(server, this.log);
      await this.removeBackups(server);
      this.configurations.forget(server);
      this.quotas.forget(server);
      this.socketTokens.forget(server);
    });
  }

  async revokeSocketTokens(server: string, jtis: string[]): Promise<void> {
    await this.configurations.get(server);
    this.socketTokens.deny(server, jtis);
  }
}
