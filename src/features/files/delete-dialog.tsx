import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { MutationState } from '../../components/ui/use-abortable-submit';
import { useT } from './messages';

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
  const t = useT();
  const title = t('files.delete.title', { count: list.length, name: list[0] ?? '' });
  return (
    <ConfirmDialog
      open={names !== null}
      onOpenChange={onOpenChange}
      title={title}
      description={t('files.delete.description')}
      confirmLabel={t('files.delete')}
      danger
      mutation={mutation}
      onConfirm={(signal) => onConfirm(list, signal)}
    >
      {list.length > 1 && (
        <ul
          aria-label={t('files.delete.listLabel')}
          className="max-h-60 overflow-y-auto rounded-md bg-zinc-950 px-3 py-2 font-mono text-sm text-zinc-300 ring-1 ring-zinc-800"
        >
          {list.slice(0, SHOWN).map((n) => (
            <li key={n} className="truncate" title={n}>
              {n}
            </li>
          ))}
          {list.length > SHOWN && <li className="font-sans text-zinc-400">{t('files.delete.more', { count: list.length - SHOWN })}</li>}
        </ul>
      )}
    </ConfirmDialog>
  );
}
