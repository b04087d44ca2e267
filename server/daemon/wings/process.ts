import type { ProcessState, SocketStats } from '../../../src/contract';
import type { PowerAction, ProcessCapability, StatsCapability } from '../capabilities';
import { wingsDetailsSchema } from './responses';
import { serverPath, type WingsTransport } from './transport';
import type { CommandsRequest, PowerRequest } from './requests';

/*
 * Power, console commands and what a server uses, over Wings' server routes. Wings tells the
 * panel of state changes only through the browser's websocket, so `state` asks the node.
 */

export class WingsProcess implements ProcessCapability, StatsCapability {
  private readonly seen = new Map<string, ProcessState>();

  constructor(private readonly http: WingsTransport) {}

  /** Wings' 202: the action runs on the node; a suspended server's start is its 400. */
  async power(server: string, action: PowerAction): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, '/power'),
      json: { action } satisfies PowerRequest,
      statusKinds: { 400: 'conflict' },
    });
  }

  /** Wings answers 502 for a server that is not running. */
  async command(server: string, line: string): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, '/commands'),
      json: { commands: [line] } satisfies CommandsRequest,
      statusKinds: { 502: 'offline' },
    });
  }

  /** The node is asked; one that does not answer runs nothing the panel could reach, so its last seen state stands (`offline` before any). */
  async state(server: string): Promise<ProcessState> {
    try {
      return (await this.resources(server)).state;
    } catch {
      return this.seen.get(server) ?? 'offline';
    }
  }

  async resources(server: string): Promise<SocketStats> {
    const details = await this.http.json({ method: 'GET', path: serverPath(server) }, wingsDetailsSchema);
    this.seen.set(server, details.state);
    return { ...details.utilization, state: details.state };
  }
}
