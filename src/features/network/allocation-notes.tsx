import { useEffect, useRef, useState } from 'react';
import type { Allocation } from '../../contract/network';
import { useServerRef } from '../servers/api';
import { useAllocationNotes } from './api';
import { useT } from './messages';

/** How long typing must pause before the notes are saved. */
export const NOTES_SAVE_DELAY_MS = 800;
const MAX_NOTES = 256;

/** The notes of one allocation, saved on their own after a pause in typing, with the outcome beside them. */
export function AllocationNotes({ allocation, editable }: { allocation: Allocation; editable: boolean }) {
  const server = useServerRef();
  const t = useT();
  const save = useAllocationNotes(server, allocation.id);
  const saved = allocation.notes ?? '';
  const [value, setValue] = useState(saved);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The notes typed but not yet sent, and which save is the latest (only its outcome is shown).
  const pending = useRef<(() => void) | null>(null);
  const latest = useRef(0);
  // Leaving the page within the pause still saves what was typed.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      pending.current?.();
    },
    [],
  );

  if (!editable) return saved ? <p className="mt-0.5 text-sm break-words text-zinc-400">{saved}</p> : null;

  function change(next: string) {
    setValue(next);
    clearTimeout(timer.current);
    pending.current = null;
    if (next.length > MAX_NOTES) return setState('failed');
    setState('idle');
    const send = () => {
      pending.current = null;
      const attempt = ++latest.current;
      setState('saving');
      const settle = (outcome: 'saved' | 'failed') => () => {
        if (attempt === latest.current) setState(outcome);
      };
      save.mutate(next.trim() === '' ? null : next, { onSuccess: settle('saved'), onError: settle('failed') });
    };
    pending.current = send;
    timer.current = setTimeout(send, NOTES_SAVE_DELAY_MS);
  }

  const label = t('network.notes.label', { address: `${allocation.ip}:${allocation.port}` });
  return (
    <div className="mt-1 flex items-center gap-2">
      <input
        aria-label={label}
        value={value}
        placeholder={t('network.notes.placeholder')}
        maxLength={MAX_NOTES + 1}
        onChange={(e) => change(e.target.value)}
        aria-invalid={state === 'failed' || undefined}
        className="w-full max-w-md rounded-md bg-zinc-900 px-2 py-1 text-sm text-zinc-100 ring-1 ring-zinc-700 ring-inset placeholder:text-zinc-500 focus:ring-sky-600 focus:outline-none"
      />
      <span role="status" className="shrink-0 text-xs text-zinc-400">
        {state === 'saving' && t('network.notes.saving')}
        {state === 'saved' && t('network.notes.saved')}
        {state === 'failed' && (
          <span className="text-red-400">
            {value.length > MAX_NOTES ? t('network.notes.tooLong', { max: MAX_NOTES }) : (save.error?.message ?? t('network.notes.notSaved'))}
          </span>
        )}
      </span>
    </div>
  );
}
