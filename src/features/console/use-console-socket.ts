import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { fetchSocketToken } from './api';
import { ConsoleSocket, type ConsoleSocketSnapshot } from './socket-client';

/**
 * One socket for the open server page: connects on mount, closes on unmount. The page reads its
 * state; the terminal subscribes to its output with `socket.onOutput`.
 */
export function useConsoleSocket(uuid: string, enabled: boolean): { socket: ConsoleSocket; state: ConsoleSocketSnapshot } {
  const socket = useMemo(() => new ConsoleSocket({ fetchToken: () => fetchSocketToken(uuid) }), [uuid]);
  useEffect(() => {
    if (!enabled) return;
    socket.start();
    return () => socket.stop();
  }, [socket, enabled]);
  const state = useSyncExternalStore(socket.subscribe, socket.getSnapshot);
  return { socket, state };
}
