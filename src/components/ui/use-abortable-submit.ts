import { useCallback, useEffect, useRef } from 'react';

/** The part of a TanStack mutation a dialog reads: its own state, never a copy. */
export interface MutationState {
  isPending: boolean;
  error: Error | null;
  reset: () => void;
}

/**
 * What the mutation and confirm dialogs share: each submit gets an AbortSignal; cancelling while
 * the request runs aborts it and forgets the mutation's state, so the user can always leave, and
 * a late answer changes nothing on screen. Opening the dialog again starts from a clean state.
 */
export function useAbortableSubmit(open: boolean, onOpenChange: (open: boolean) => void, mutation: MutationState | undefined) {
  const controller = useRef<AbortController | null>(null);
  const reset = mutation?.reset;
  const pending = mutation?.isPending ?? false;

  useEffect(() => {
    if (!open) return;
    // A previous attempt's error belongs to that attempt.
    reset?.();
    return () => controller.current?.abort();
  }, [open, reset]);

  const start = useCallback(() => {
    controller.current?.abort();
    controller.current = new AbortController();
    return controller.current.signal;
  }, []);

  const close = useCallback(
    (next: boolean) => {
      if (next) return onOpenChange(true);
      if (pending) {
        controller.current?.abort();
        reset?.();
      }
      onOpenChange(false);
    },
    [onOpenChange, pending, reset],
  );

  return { start, close, pending };
}
