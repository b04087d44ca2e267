import type { ServerConfiguration } from '../capabilities';
import { DaemonError } from '../types';

/** Asks the panel for a server's configuration; undefined when the panel has no such server. */
export type ConfigurationSource = (server: string) => Promise<ServerConfiguration | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isServerUuid = (server: string): boolean => UUID.test(server);

export const unknownServer = (): DaemonError => new DaemonError('not_found', 'The requested server does not exist on this node.');

/*
 * The configurations this node holds, as Wings holds them: pushed by the panel when a server is
 * created or changed, and pulled from the panel the first time a server the node has not been
 * told about is used (one created by another process, such as the admin CLI, or any server after
 * a restart, since nothing here outlives the process). A held configuration is pulled afresh when
 * it is older than `refreshMs`, so a change made where the panel could not push it (the admin CLI
 * suspending a server) reaches the node within that time; a failed pull keeps what is held.
 */
export class Configurations {
  private readonly held = new Map<string, { configuration: ServerConfiguration; at: number }>();
  private readonly pulls = new Map<string, Promise<ServerConfiguration | undefined>>();
  /** Counts each server's pushes and removals, so a pull that raced one does not undo it. */
  private readonly changes = new Map<string, number>();
  /** Told of every configuration taken in, pushed or pulled (a server suspended meanwhile is stopped). */
  onUpdate: (configuration: ServerConfiguration) => void = () => undefined;

  constructor(
    private readonly source?: ConfigurationSource,
    private readonly now: () => number = Date.now,
    private readonly refreshMs = 10_000,
  ) {}

  set(configuration: ServerConfiguration): void {
    const server = configuration.settings.uuid;
    if (!isServerUuid(server)) throw new DaemonError('bad_request', 'A server configuration needs the server uuid.');
    this.held.set(server, { configuration, at: this.now() });
    this.changed(server);
    this.onUpdate(configuration);
  }

  /** The server's configuration, pulled when not held or stale; `not_found` when the panel does not know it either. */
  async get(server: string): Promise<ServerConfiguration> {
    const held = this.held.get(server);
    if (held && (!this.source || this.now() - held.at < this.refreshMs)) return held.configuration;
    const configuration = await this.pull(server).catch((error: unknown) => {
      if (held) return held.configuration;
      throw error;
    });
    if (!configuration) throw unknownServer();
    return configuration;
  }

  forget(server: string): void {
    this.held.delete(server);
    this.changed(server);
  }

  private changed(server: string): void {
    this.changes.set(server, (this.changes.get(server) ?? 0) + 1);
  }

  private pull(server: string): Promise<ServerConfiguration | undefined> {
    if (!this.source || !isServerUuid(server)) return Promise.resolve(undefined);
    const source = this.source;
    let pull = this.pulls.get(server);
    if (!pull) {
      // One request per server however many calls wait for it; a push that lands meanwhile wins.
      const changes = this.changes.get(server);
      pull = source(server)
        .then((pulled) => {
          if (this.changes.get(server) !== changes) return this.held.get(server)?.configuration;
          if (pulled?.settings.uuid !== server) {
            // The panel no longer has it: neither does this node.
            this.held.delete(server);
            return undefined;
          }
          this.held.set(server, { configuration: pulled, at: this.now() });
          this.onUpdate(pulled);
          return pulled;
        })
        .finally(() => this.pulls.delete(server));
      this.pulls.set(server, pull);
    }
    return pull;
  }
}
