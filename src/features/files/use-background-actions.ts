import { useCallback, useState } from 'react';
import { toast } from '../../components/ui/toast';
import { t } from './messages';

export interface BackgroundAction {
  id: number;
  /** "Compressing 3 items…" while it runs. */
  label: string;
  /** What went wrong, said in full ("Compressing 3 items failed: …"), once it has failed. */
  error: string | null;
}

let seq = 0;

/**
 * Copy, compress and decompress run without a dialog: they show as "running" under the toolbar
 * where they were started, end with a toast, and a failure stays there until dismissed.
 */
export function useBackgroundActions() {
  const [actions, setActions] = useState<BackgroundAction[]>([]);

  const run = useCallback(<T>(label: string, work: () => Promise<T>, done: (result: T) => string, failed: (error: string) => string) => {
    seq += 1;
    const id = seq;
    setActions((list) => [...list, { id, label, error: null }]);
    work().then(
      (result) => {
        setActions((list) => list.filter((a) => a.id !== id));
        toast.success(done(result));
      },
      (err: unknown) => {
        const message = failed(err instanceof Error ? err.message : t('files.background.unknownError'));
        setActions((list) => list.map((a) => (a.id === id ? { ...a, error: message } : a)));
      },
    );
  }, []);

  const dismiss = useCallback((id: number) => setActions((list) => list.filter((a) => a.id !== id)), []);

  return { actions, run, dismiss };
}
