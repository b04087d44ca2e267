import type { TransferCapability } from '../capabilities';
import type { TransferRequest } from './requests';
import { serverPath, type WingsTransport } from './transport';

/*
 * The source's half of a transfer on a Wings node: told where to, Wings stops the server and
 * streams it to the target itself (202); the target reports the end to the panel's remote API,
 * and a source that fails reports its failure there too.
 */
export class WingsTransfers implements TransferCapability {
  constructor(private readonly http: WingsTransport) {}

  async send(server: string, target: { url: string; token: string }): Promise<void> {
    const body = { url: target.url, token: target.token, server: { uuid: server, start_on_completion: false } } satisfies TransferRequest;
    await this.http.empty({ method: 'POST', path: serverPath(server, '/transfer'), json: body });
  }
}
