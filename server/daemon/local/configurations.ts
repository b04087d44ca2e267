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
 * a restart, since nothing here outlives the process).
 */
export class Configurations {
  private readonly held = new Map<string, ServerConfiguration>();
  private readonly pulls = new Map<string, Promise<ServerConfiguration | undefined>>();
  /** Counts pushes and removals, so a pull that raced one does not bring back what it replaced. */
  private changes = 0;

  constructor(private readonly source?: ConfigurationSource) {}

  set(configuration: ServerConfiguration): void {
    const server = configuration.settings.uuid;
    if (!isServerUuid(server)) throw new DaemonError('bad_request', 'A server configuration needs the server uuid.');
    this.held.set(server, configuration);
    this.changes += 1;
  }

  /** The server's configuration, pulled once when not held; `not_found` when the panel does not know it either. */
  async get(server: string): Promise<ServerConfiguration> {
    const configuration = this.held.get(server) ?? (await this.pull(server));
    if (!configuration) throw unknownServer();
    return configuration;
  }

  forget(server: string): void {
    this.held.delete(server);
    this.changes += 1;
  }

  private pull(server: string): Promise<ServerConfiguration | undefined> {
    if (!this.source || !isServerUuid(server)) return Promise.resolve(undefined);
    const source = this.source;
    let pull = this.pulls.get(server);
    if (!pull) {
      // One request per server however many calls wait for it; a push that lands meanwhile wins.
      const changes = this.changes;
      pull = source(server)
        .then((pulled) => {
          const current = this.held.get(server);
          if (current) return current;
          if (pulled?.settings.uuid !== server) return undefined;
          if (this.changes === changes) this.held.set(server, pulled);
          return pulled;
        })
        .finally(() => this.pulls.delete(server));
      this.pulls.set(server, pull);
    }
    return pull;
  }
}
