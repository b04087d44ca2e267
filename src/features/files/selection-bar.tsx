import { Button } from '../../components/ui/button';
import type { FileActions } from './file-actions';
import { useT } from './messages';
import { canActOnSelection, type FilePermissions } from './use-file-permissions';

/** Mass actions on the selected entries; only those the user may run are shown. */
export function SelectionBar({
  names,
  perms,
  actions,
  onClear,
}: {
  names: string[];
  perms: FilePermissions;
  actions: FileActions;
  onClear: () => void;
}) {
  const t = useT();
  // Without a mass action the user may run, a selection leads nowhere: nothing to offer.
  if (names.length === 0 || !canActOnSelection(perms)) return null;
  return (
    // Floats over the page's foot, so selecting never pushes the list down under the pointer.
    <div
      role="toolbar"
      aria-label={t('files.selection.label')}
      className="fixed inset-x-4 bottom-4 z-30 mx-auto flex max-w-3xl flex-wrap items-center gap-2 rounded-lg bg-sky-950/95 px-3 py-2 shadow-lg shadow-black/40 ring-1 ring-sky-800 backdrop-blur"
    >
      <span className="mr-auto basis-full text-sm font-medium text-sky-100 sm:basis-auto" aria-live="polite">
        {t('files.selection.count', { count: names.length })}
      </span>
      {perms.update && (
        <Button variant="secondary" size="sm" onClick={() => actions.move(names)}>
          {t('files.move')}
        </Button>
      )}
      {perms.archive && (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            // The archive is made in the background (its progress shows above the list): the
            // selection it was made from is done with.
            actions.compress(names);
            onClear();
          }}
        >
          {t('files.compress')}
        </Button>
      )}
      {perms.delete && (
        <Button variant="danger" size="sm" onClick={() => actions.remove(names)}>
          {t('files.delete')}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onClear}>
        {t('files.selection.clear')}
      </Button>
    </div>
  );
}
