import type { NodeDaemon } from '../capabilities';
import { WingsBackups } from './backups';
import { WingsEvents } from './events';
import { WingsFiles } from './files';
import { WingsProcess } from './process';
import { WingsServers } from './servers';
import { WingsTransfers } from './transfers';
import { systemHealth, type NodeHealth } from './system';
import { WingsTransport, type WingsEndpoint } from './transport';

export { nodeHealth, type NodeHealth } from './system';
export type { WingsEndpoint } from './transport';

/**
 * A node the panel drives over Wings' HTTP API: a real Wings, or Aerie's node run on its own.
 * Every capability but the console, which the browser reaches on the node itself.
 */
export class WingsNode implements NodeDaemon {
  readonly files: WingsFiles;
  readonly servers: WingsServers;
  readonly process: WingsProcess;
  readonly stats: WingsProcess;
  readonly backups: WingsBackups;
  readonly transfers: WingsTransfers;
  readonly events: WingsEvents;
  private readonly http: WingsTransport;

  constructor(endpoint: WingsEndpoint & { log?: (message: string) => void }) {
    this.http = new WingsTransport(endpoint);
    this.files = new WingsFiles(this.http);
    this.servers = new WingsServers(this.http);
    this.process = new WingsProcess(this.http);
    this.stats = this.process;
    this.backups = new WingsBackups(this.http, { key: endpoint.token, audience: endpoint.baseUrl.replace(/\/+$/, '') });
    this.transfers = new WingsTransfers(this.http);
    this.events = new WingsEvents(endpoint.log);
  }

  /** `GET /api/system`: the node's version, or why it does not answer. */
  health(timeoutMs?: number): Promise<NodeHealth> {
    return systemHealth(this.http, timeoutMs);
  }
}
