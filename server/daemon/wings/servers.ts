import type { ServerCapability } from '../capabilities';
import { DaemonError } from '../types';
import { serverPath, type WingsTransport } from './transport';
import type { CreateServerRequest, DenyRequest } from './requests';

/*
 * A server's life on a Wings node. Wings holds no configuration it was handed: told to create or
 * sync, it fetches the server's configuration from the panel's remote API itself, and reports an
 * install's end there too (`routes/remote.ts`), so `create` answers once Wings has accepted it.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class WingsServers implements ServerCapability {
  constructor(private readonly http: WingsTransport) {}

  /** Wings' 202: it fetches the configuration and install script, installs, and reports back. */
  async create(server: string): Promise<void> {
    // Wings' 422 for a name that is no uuid: no such server, as on every other route.
    if (!UUID.test(server)) throw new DaemonError('not_found', 'The requested resource does not exist on this instance.');
    await this.http.empty({ method: 'POST', path: '/api/servers', json: { uuid: server, start_on_completion: false } satisfies CreateServerRequest });
  }

  /** The node fetches this server's configuration from the panel now (Wings' 204). */
  async sync(server: string): Promise<void> {
    await this.http.empty({ method: 'POST', path: serverPath(server, '/sync') });
  }

  async reinstall(server: string): Promise<void> {
    await this.http.empty({ method: 'POST', path: serverPath(server, '/reinstall') });
  }

  /** A server Wings does not know (404) is already gone. */
  async delete(server: string): Promise<void> {
    try {
      await this.http.empty({ method: 'DELETE', path: serverPath(server) });
    } catch (error) {
      if (!(error instanceof DaemonError && error.kind === 'not_found')) throw error;
    }
  }

  async revokeSocketTokens(server: string, jtis: string[]): Promise<void> {
    await this.http.empty({ method: 'POST', path: serverPath(server, '/ws/deny'), json: { jtis } satisfies DenyRequest });
  }
}
