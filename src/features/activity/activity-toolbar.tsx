import { useEffect, useId, useRef, useState } from 'react';
import { cn } from '../../components/ui/cn';
import type { ActivitySort } from './api';

export const FILTER_DEBOUNCE_MS = 300;

/**
 * The event filter (applied 300 ms after typing stops, or at once on Enter) and the sort order.
 * The URL holds the applied values; the input keeps its own draft while the user types.
 */
export function ActivityToolbar({
  event,
  sort,
  onEventChange,
  onSortChange,
}: {
  event: string;
  sort: ActivitySort;
  onEventChange: (event: string) => void;
  onSortChange: (sort: ActivitySort) => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState(event);
  // Follow outside changes (clicking an event name, back/forward) without clobbering typing.
  const [applied, setApplied] = useState(event);
  if (applied !== event) {
    setApplied(event);
    setDraft(event);
  }
  const onChangeRef = useRef(onEventChange);
  useEffect(() => {
    onChangeRef.current = onEventChange;
  });

  useEffect(() => {
    if (draft.trim() === event.trim()) return;
    const timer = setTimeout(() => onChangeRef.current(draft.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, event]);

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <form
        role="search"
        className="flex min-w-0 flex-1 flex-col gap-1.5 sm:max-w-md"
        onSubmit={(e) => {
          e.preventDefault();
          onEventChange(draft.trim());
        }}
      >
        <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
          Filter by event
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            type="search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="e.g. server:file or power.start"
            autoComplete="off"
            spellCheck={false}
            maxLength={191}
            className="min-h-10 w-full min-w-0 rounded-md bg-zinc-900 px-3 py-2 font-mono text-sm text-zinc-100 ring-1 ring-zinc-700 ring-inset placeholder:font-sans placeholder:text-zinc-400 focus:ring-2 focus:ring-sky-500 focus:outline-none"
          />
          {draft !== '' && (
            <button
              type="button"
              onClick={() => {
                setDraft('');
                onEventChange('');
              }}
              className="min-h-10 shrink-0 rounded-md px-3 text-sm font-medium text-zinc-300 ring-1 ring-zinc-700 ring-inset hover:bg-zinc-800"
            >
              Clear
            </button>
          )}
        </div>
      </form>
      <div
        role="group"
        aria-label="Sort order"
        className="inline-flex shrink-0 self-start rounded-md bg-zinc-900 p-0.5 ring-1 ring-zinc-700 ring-inset sm:self-auto"
      >
        {(
          [
            ['-timestamp', 'Newest first'],
            ['timestamp', 'Oldest first'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={sort === value}
            onClick={() => onSortChange(value)}
            className={cn(
              'min-h-9 rounded px-3 text-sm font-medium transition-colors',
              sort === value ? 'bg-sky-700 text-white' : 'text-zinc-300 hover:bg-zinc-800 hover:text-white',
            )}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
