import type { NodeDaemon, ServerConfiguration } from '../daemon/capabilities';
import type { ConfigurationSource } from '../daemon/local';

/**
 * The panel's side of a node's configurations, for tests of a daemon without a panel: a node
 * fetches each server's configuration from `source`, and `apply` changes one and says so with the
 * one call a panel makes (`servers.sync`).
 */
export class ConfigurationStore {
  private readonly held = new Map<string, ServerConfiguration>();

  readonly source: ConfigurationSource = (server) => Promise.resolve(this.held.get(server));

  /** Stores the configuration; the node takes it at its next fetch (create, start, sync). */
  put(configuration: ServerConfiguration): void {
    this.held.set(configuration.settings.uuid, configuration);
  }

  /** Stores the configuration and has the node fetch it now. */
  async apply(daemon: NodeDaemon, configuration: ServerConfiguration): Promise<void> {
    this.put(configuration);
    await daemon.servers.sync(configuration.settings.uuid);
  }
}
