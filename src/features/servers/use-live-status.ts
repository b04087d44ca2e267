import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ServerStats } from '../../contract/websocket';
import { serverQueries, type ServerRef } from './api';

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

/**
 * A server's state and usage for its row in the list, polled through `resources` only while the
 * row is on screen and the tab visible, so a long list costs a request per visible row.
 */
export function useLiveStatus(server: ServerRef, ref: RefObject<Element | null>, enabled: boolean): ServerStats['attributes'] | null {
  const onScreen = useOnScreen(ref);
  const visible = useSyncExternalStore(subscribeVisibility, tabVisible, () => true);
  const active = enabled && onScreen && visible;
  const query = useQuery({ ...serverQueries.resources(server), enabled: active, refetchInterval: active ? LIVE_STATUS_INTERVAL_MS : false });
  return enabled ? (query.data?.attributes ?? null) : null;
}
