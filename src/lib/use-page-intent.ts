import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * `?open=<intent>` asks the page it links to to open something once it can (the command
 * palette's "Create backup" opens the backups page with its create dialog): the page runs it, and
 * the parameter leaves the URL (replaced), so Back or a reload does not open it again.
 */
const PARAM = 'open';

export type PageIntent = 'new-file' | 'create-backup' | 'sftp';

/** A link to `path` that asks the page for `intent`. */
export function intentHref(path: string, intent: PageIntent): string {
  return `${path}?${PARAM}=${intent}`;
}

/** Runs `run` once the URL asks for `intent` and the page is `ready` for it (its data loaded, the action allowed). */
export function usePageIntent(intent: PageIntent, ready: boolean, run: () => void): void {
  const [params, setParams] = useSearchParams();
  const asked = params.get(PARAM) === intent;
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });
  useEffect(() => {
    if (!asked || !ready) return;
    latest.current();
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete(PARAM);
        return next;
      },
      { replace: true },
    );
  }, [asked, ready, setParams]);
}
