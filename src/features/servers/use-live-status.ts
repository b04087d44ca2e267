import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ServerStats } from '../../contract/websocket';
import { serverQueries, type ServerRef } from './api';
import { nodeNotAnswering } from './node-status';

/** How often a row on screen asks for its server's state. */
export const LIVE_STATUS_INTERVAL_MS = 15_000;

const subscribeVisibility = (l: () => void) => {
  document.addEventListener('visibilitychange', l);
  return () => document.removeEventListener('visibilitychange', l);
};
const tabVisible = () => document.visibilityState === 'visible';

/** Whether the element is on screen (never, where the browser has no IntersectionObserver). */
function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setOnScreen(entries.some((e) => e.isIntersecting)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

export interface LiveStatus {
  stats: ServerStats['attributes'] | null;
  /** `resources` answered that the server's node does not answer (any panel's 502/504). */
  nodeDown: boolean;
}

/**
 * A server's state and usage for its row in the list, polled through `resources` only while the
 * row is on screen and the tab visible, so a long list costs a request per visible row.
 */
export function useLiveStatus(server: ServerRef, ref: RefObject<Element | null>, enabled: boolean): LiveStatus {
  const onScreen = useOnScreen(ref);
  const visible = useSyncExternalStore(subscribeVisibility, tabVisible, () => true);
  const active = enabled && onScreen && visible;
  const query = useQuery({ ...serverQueries.resources(server), enabled: active, refetchInterval: active ? LIVE_STATUS_INTERVAL_MS : false });
  if (!enabled) return { stats: null, nodeDown: false };
  // A failed poll keeps the last data: the node being down wins over a state it no longer has.
  const nodeDown = nodeNotAnswering(query.error);
  return { stats: nodeDown ? null : (query.data?.attributes ?? null), nodeDown };
}
