import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENTS } from '../../contract/websocket';
import { serverQueries, type ServerRef } from '../servers/api';
import { fetchSocketToken } from './api';
import { ConsoleSocket, type ConsoleSocketSnapshot } from './socket-client';

/**
 * One socket for the open server page: connects on mount, closes on unmount. The page reads its
 * state; the terminal subscribes to its output with `socket.onOutput`.
 *
 * A token refused by the node (the panel revokes a subuser's tokens when their rights change or
 * they are removed), or access lost, means the rights the page was drawn with are stale: the
 * server's `meta.user_permissions` is fetched again, so controls follow without a reload (the
 * reference SPA never does this).
 */
export function useConsoleSocket(server: ServerRef, enabled: boolean): { socket: ConsoleSocket; state: ConsoleSocketSnapshot } {
  const { uuid, routeId } = server;
  const client = useQueryClient();
  const socket = useMemo(() => new ConsoleSocket({ fetchToken: () => fetchSocketToken(uuid) }), [uuid]);
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => void client.invalidateQueries({ queryKey: serverQueries.detail(routeId).queryKey });
    const off = socket.onEvent((event) => {
      if (event === SOCKET_EVENTS.jwtError) refresh();
    });
    let connection = socket.getSnapshot().connection;
    const unsubscribe = socket.subscribe(() => {
      const next = socket.getSnapshot().connection;
      if (next === 'error' && connection !== 'error') refresh();
      connection = next;
    });
    socket.start();
    return () => {
      off();
      unsubscribe();
      socket.stop();
    };
  }, [socket, enabled, client, routeId]);
  const state = useSyncExternalStore(socket.subscribe, socket.getSnapshot);
  return { socket, state };
}
