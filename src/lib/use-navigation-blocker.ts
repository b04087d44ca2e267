import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, useLocation, type Navigator, type To } from 'react-router';

export type Blocker = { state: 'unblocked'; proceed?: undefined; reset?: undefined } | { state: 'blocked'; proceed: () => void; reset: () => void };

const pathOf = (to: To) => (typeof to === 'string' ? new URL(to, window.location.href).pathname : (to.pathname ?? window.location.pathname));

/**
 * Holds in-app navigation away from a page until the user decides (the shape of React Router's
 * data-router `useBlocker`, which the app's plain `<BrowserRouter>` does not have; that router is
 * half the size). While `when(pathname)` says so for the target: links and `navigate()` calls
 * wait, and Back/Forward is undone until the user confirms. `proceed` runs the held navigation,
 * `reset` drops it.
 */
export function useNavigationBlocker(active: boolean, when: (nextPathname: string) => boolean): Blocker {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const location = useLocation();
  const held = useRef<(() => void) | null>(null);
  const [blocked, setBlocked] = useState(false);
  const whenRef = useRef(when);
  const allowPop = useRef(false);
  // The history index of the page shown (React Router keeps it in history.state.idx).
  const index = useRef<number | null>(null);
  useEffect(() => {
    whenRef.current = when;
  });
  useEffect(() => {
    index.current = readIndex(window.history.state);
  }, [location]);

  useEffect(() => {
    if (!active) return;
    const nav: Navigator = navigator;
    const { push, replace } = nav;
    const hold = (to: To, run: () => void) => {
      if (!whenRef.current(pathOf(to))) return run();
      held.current = run;
      setBlocked(true);
    };
    nav.push = (to, state, opts) => hold(to, () => push.call(nav, to, state, opts));
    nav.replace = (to, state, opts) => hold(to, () => replace.call(nav, to, state, opts));

    // Back/Forward has already moved the URL when popstate fires: stop the router from seeing it,
    // move back to where we were, and ask. A capture listener on window runs before the router's.
    let undoing = false;
    const onPop = (event: PopStateEvent) => {
      if (allowPop.current) {
        allowPop.current = false;
        return;
      }
      const from = index.current;
      const to = readIndex(event.state);
      if (undoing) {
        undoing = false;
        event.stopImmediatePropagation();
        return;
      }
      if (from === null || to === null || from === to || !whenRef.current(window.location.pathname)) return;
      event.stopImmediatePropagation();
      undoing = true;
      window.history.go(from - to);
      held.current = () => {
        allowPop.current = true;
        window.history.go(to - from);
      };
      setBlocked(true);
    };
    window.addEventListener('popstate', onPop, { capture: true });
    return () => {
      nav.push = push;
      nav.replace = replace;
      window.removeEventListener('popstate', onPop, { capture: true });
    };
  }, [active, navigator]);

  const proceed = useCallback(() => {
    const run = held.current;
    held.current = null;
    setBlocked(false);
    run?.();
  }, []);
  const reset = useCallback(() => {
    held.current = null;
    setBlocked(false);
  }, []);

  return blocked ? { state: 'blocked', proceed, reset } : { state: 'unblocked' };
}

function readIndex(state: unknown): number | null {
  if (typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number') return state.idx;
  return null;
}
