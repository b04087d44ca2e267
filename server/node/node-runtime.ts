import type { DaemonEvent, ServerConfiguration } from '../daemon/capabilities';
import type { LocalDaemon } from '../daemon/local';
import { ActivityBatch } from './activity-batch';
import type { PanelClient } from './panel-client';
import { UNKNOWN_SERVER, WingsError } from './wings-http';

/*
 * What Aerie's node keeps beside its local daemon, as Wings' server manager does: which servers it
 * holds (the panel's list at boot, plus those it creates) and the bridge from the daemon's events to the panel's remote API.
 */

export type NodeLog = (message: string, error?: unknown) => void;

export class NodeRuntime {
  private readonly known = new Set<string>();
  readonly activity: ActivityBatch;
  private daemon: LocalDaemon | null = null;

  constructor(
    readonly client: PanelClient,
    private readonly log: NodeLog,
  ) {
    this.activity = new ActivityBatch(
      (data) => client.sendActivity(data),
      (m) => log(m),
    );
  }

  /** The daemon's configuration source: the panel's remote API. */
  readonly configurationSource = (server: string): Promise<ServerConfiguration | undefined> => this.client.serverConfiguration(server);

  /** Takes the daemon and sends what it reports to the panel. */
  attach(daemon: LocalDaemon): void {
    this.daemon = daemon;
    daemon.events.subscribe((event) => this.report(event));
  }

  /** Boot, as Wings: the node's servers from the panel (pages of 50), then `servers/reset`. */
  async boot(): Promise<number> {
    for (const uuid of await this.client.serverUuids()) this.known.add(uuid);
    await this.client.resetServers();
    return this.known.size;
  }

  /** A server this node holds; Wings' 404 for any other. */
  held(server: string): string {
    const uuid = server.toLowerCase();
    if (!this.known.has(uuid)) throw new WingsError(404, UNKNOWN_SERVER);
    return uuid;
  }

  add(server: string): void {
    this.known.add(server.toLowerCase());
  }

  remove(server: string): void {
    this.known.delete(server);
  }

  get servers(): string[] {
    return [...this.known];
  }

  private async report(event: DaemonEvent): Promise<void> {
    try {
      switch (event.type) {
        case 'install.completed':
          return await this.client.reportInstall(event.server, event.successful, event.reinstall);
        case 'backup.completed':
          return await this.client.reportBackup(event.backup, {
            successful: event.successful,
            // The daemon says `sha1:<hex>`; Wings sends the bare hex with its type beside it.
            checksum: event.checksum.replace(/^sha1:/, ''),
            size: event.bytes,
          });
        case 'restore.completed':
          return await this.client.reportRestore(event.backup, event.successful);
        case 'activity':
          return this.activity.add({
            user: event.user || null,
            server: event.server,
            event: event.event,
            metadata: event.properties,
            ip: event.ip,
            timestamp: new Date().toISOString(),
          });
        case 'transfer.completed':
          // The server now lives here (its files arrived whole), or nothing of it was left.
          if (event.successful) this.add(event.server);
          return await this.client.reportTransfer(event.server, event.successful);
        case 'transfer.sent':
          // Wings' source tells the panel only of a failure; the target reports a success.
          // Wings' failure report carries no reason: the node's log keeps it for the operator.
          if (!event.successful) {
            this.log(`the transfer of ${event.server} failed: ${event.reason}`);
            await this.client.reportTransfer(event.server, false);
          }
          return;
        case 'state.changed':
          return;
      }
    } catch (error) {
      this.log(`could not tell the panel ${event.type} for ${event.server}`, error);
    }
  }

  /** Shutdown as the panel's: servers stopped with their stop commands, then the activity sent. */
  async shutdown(): Promise<void> {
    await this.daemon?.process.stopAll();
    await this.activity.stop();
  }
}
