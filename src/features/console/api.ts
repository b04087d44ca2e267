import { useMutation } from '@tanstack/react-query';
import { consoleEndpoints, websocketEndpoints, type PowerSignal } from '../../contract/websocket';
import { ApiError, call } from '../../lib/http';
import { SocketAccessLost, type SocketToken } from './socket-client';

/*
 * The console's calls. The live console is the node's websocket (socket-client.ts); a token for
 * it is asked for on every new connection and re-authentication, never kept.
 */

/** A token for the server's socket; a 403 means the user may no longer open it. */
export async function fetchSocketToken(uuid: string): Promise<SocketToken> {
  try {
    return (await call(websocketEndpoints.token, { params: { server: uuid } })).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) throw new SocketAccessLost(err.message);
    throw err;
  }
}

/*
 * Power goes over HTTP rather than the socket's `set state`: a refusal (no bubblewrap, a power
 * action already running, a suspended server) comes back as an error document the page can show,
 * where the socket would drop it silently, and it works while the socket is reconnecting.
 */
export function usePowerAction(uuid: string) {
  return useMutation({
    mutationFn: (signal: PowerSignal) => call(consoleEndpoints.power, { params: { server: uuid }, body: { signal } }),
    meta: { toastErrors: true },
  });
}
