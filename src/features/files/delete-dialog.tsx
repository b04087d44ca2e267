import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/dialog';

const SHOWN = 15;

/** Confirms a delete, naming what goes: the first 15 names, then "and N more". */
export function DeleteDialog({
  names,
  onOpenChange,
  onConfirm,
}: {
  names: string[] | null;
  onOpenChange: (open: boolean) => void;
  onConfirm: (names: string[]) => Promise<unknown>;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = names ?? [];
  const title = list.length === 1 ? `Delete “${list[0] ?? ''}”?` : `Delete ${list.length} items?`;

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm(list);
      onOpenChange(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The files could not be deleted.');
    } finally {
      setPending(false);
    }
  }

  return (
    <ConfirmDialog
      open={names !== null}
      onOpenChange={(open) => {
        if (pending) return;
        if (!open) setError(null);
        onOpenChange(open);
      }}
      title={title}
      description="Deleted files and folders cannot be recovered, and folders are deleted with everything in them."
      confirmLabel="Delete"
      danger
      pending={pending}
      error={error}
      onConfirm={() => void confirm()}
    >
      {list.length > 1 && (
        <ul
          aria-label="Items to delete"
          className="max-h-60 overflow-y-auto rounded-md bg-zinc-950 px-3 py-2 font-mono text-sm text-zinc-300 ring-1 ring-zinc-800"
        >
          {list.slice(0, SHOWN).map((n) => (
            <li key={n} className="truncate" title={n}>
              {n}
            </li>
          ))}
          {list.length > SHOWN && <li className="font-sans text-zinc-400">and {list.length - SHOWN} more</li>}
        </ul>
      )}
    </ConfirmDialog>
  );
}
