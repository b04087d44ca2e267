import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useMutation } from '@tanstack/react-query';
import { consoleEndpoints, websocketEndpoints, type PowerSignal } from '../../contract/websocket';
import { ApiError, call } from '../../lib/http';
import { ConsoleSocket, SocketAccessLost, type SocketToken } from './socket-client';

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

/**
 * The server's socket for a page that only listens for events (the backups page: `backup
 * completed:<uuid>`, `backup restore completed`): no history, open while the page is. Returns
 * whether it is connected, so the page can poll less meanwhile.
 */
export function useServerSocketEvents(uuid: string, enabled: boolean, listener: (event: string, args: readonly string[]) => void): boolean {
  const socket = useMemo(() => new ConsoleSocket({ fetchToken: () => fetchSocketToken(uuid), history: false }), [uuid]);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!enabled) return;
    const off = socket.onEvent((event, args) => latest.current(event, args));
    socket.start();
    return () => {
      off();
      socket.stop();
    };
  }, [socket, enabled]);
  const state = useSyncExternalStore(socket.subscribe, socket.getSnapshot);
  return enabled && state.connection === 'connected';
}
