import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useNavigationBlocker } from '../../lib/use-navigation-blocker';

/**
 * While `dirty`: the browser asks before a reload, tab close or off-site navigation
 * (beforeunload), and in-app navigation to another page is held (the returned blocker) until the
 * user confirms. Changing only the query string (?new=1 after the first save) is never held.
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium needs returnValue set to show the prompt.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const { pathname } = useLocation();
  return useNavigationBlocker(dirty, (next) => next !== pathname);
}
