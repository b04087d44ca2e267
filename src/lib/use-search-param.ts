import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchParamOptions {
  /** Wait this long after the last keystroke before writing the URL. */
  debounceMs?: number;
  /** Parameters a new search makes meaningless (a page number), dropped when it is applied. */
  reset?: readonly string[];
}

export interface SearchParamInput {
  /** The applied (trimmed) value: what the URL holds, what queries should use. */
  value: string;
  /** What the box shows: the user's typing, ahead of the URL while the debounce runs. */
  draft: string;
  setDraft: (draft: string) => void;
  /** Applies `next` (or the draft) at once: Enter, a clear button. */
  commit: (next?: string) => void;
  /** The box holds something the URL does not have yet. */
  pending: boolean;
}

const NO_RESET: readonly string[] = [];

/**
 * A text filter whose source of truth is one URL parameter (`?q=`, `?event=`, `?filter=`): the box
 * keeps its own draft while the user types, and the URL follows after a pause (replacing the
 * history entry, so Back does not step through every keystroke). When the URL changes under it
 * (Back, a link, a clicked event name) the box shows the new value, unless that is what is typed.
 */
export function useSearchParamInput(name: string, { debounceMs = SEARCH_DEBOUNCE_MS, reset = NO_RESET }: SearchParamOptions = {}): SearchParamInput {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? '';
  const [draft, setDraft] = useState(value);
  const [synced, setSynced] = useState(value);
  if (value !== synced) {
    setSynced(value);
    if (value !== draft.trim()) setDraft(value);
  }

  const resetKey = reset.join('\n');
  const apply = useCallback(
    (next: string) => {
      const trimmed = next.trim();
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if ((p.get(name) ?? '') === trimmed) return p;
          if (trimmed) p.set(name, trimmed);
          else p.delete(name);
          for (const key of resetKey ? resetKey.split('\n') : []) p.delete(key);
          return p;
        },
        { replace: true },
      );
    },
    [name, resetKey, setParams],
  );

  useEffect(() => {
    if (draft.trim() === value) return;
    // A click elsewhere (a tab) moves the address on while this page still shows, its next page
    // loading: writing the parameter then would send the user back here.
    const typedAt = window.location.pathname;
    const timer = window.setTimeout(() => {
      if (window.location.pathname === typedAt) apply(draft);
    }, debounceMs);
    return () => window.clearTimeout(timer);
  }, [draft, value, apply, debounceMs]);

  const commit = useCallback(
    (next?: string) => {
      const text = next ?? draft;
      setDraft(text);
      apply(text);
    },
    [draft, apply],
  );

  return { value, draft, setDraft, commit, pending: draft.trim() !== value };
}
