import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { MutationState } from '../../components/ui/use-abortable-submit';

const SHOWN = 15;

/** Confirms a delete, naming what goes: the first 15 names, then "and N more". */
export function DeleteDialog({
  names,
  onOpenChange,
  mutation,
  onConfirm,
}: {
  names: string[] | null;
  onOpenChange: (open: boolean) => void;
  mutation: MutationState;
  onConfirm: (names: string[], signal: AbortSignal) => Promise<unknown>;
}) {
  const list = names ?? [];
  const title = list.length === 1 ? `Delete “${list[0] ?? ''}”?` : `Delete ${list.length} items?`;
  return (
    <ConfirmDialog
      open={names !== null}
      onOpenChange={onOpenChange}
      title={title}
      description="Deleted files and folders cannot be recovered, and folders are deleted with everything in them."
      confirmLabel="Delete"
      danger
      mutation={mutation}
      onConfirm={(signal) => onConfirm(list, signal)}
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
