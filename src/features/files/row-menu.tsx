import type { FileObject } from '../../contract/files';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '../../components/ui/dropdown-menu';
import type { FileActions } from './file-actions';
import { isArchive, isEditable } from './file-kinds';
import { useT } from './messages';
import type { FilePermissions } from './use-file-permissions';

interface Props {
  entry: FileObject;
  perms: FilePermissions;
  actions: FileActions;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Only the active row's button is in the tab order (the grid is one tab stop). */
  tabbable: boolean;
}

/** The ⋯ menu of one row, holding only what the user's permissions allow (none: no button). */
export function RowMenu({ entry, perms, actions, open, onOpenChange, tabbable }: Props) {
  const t = useT();
  const file = entry.is_file;
  const canOpen = !file || (perms.readContent && isEditable(entry));
  const items = {
    open: canOpen,
    rename: perms.update,
    copy: perms.create && file,
    download: perms.readContent && file,
    compress: perms.archive,
    decompress: perms.create && isArchive(entry),
    remove: perms.delete,
  };
  // A menu holding only "Open" would just repeat the name link.
  if (!Object.entries(items).some(([key, allowed]) => key !== 'open' && allowed)) return null;

  return (
    <DropdownMenu
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <button
          type="button"
          tabIndex={tabbable ? 0 : -1}
          aria-label={t('files.row.menu', { name: entry.name })}
          className="inline-flex size-9 items-center justify-center rounded-md text-zinc-400 hover:bg-zinc-800 hover:text-white data-[state=open]:bg-zinc-800"
        >
          <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
            <circle cx="5" cy="12" r="1.8" />
            <circle cx="12" cy="12" r="1.8" />
            <circle cx="19" cy="12" r="1.8" />
          </svg>
        </button>
      }
    >
      {items.open && <DropdownMenuItem onSelect={() => actions.open(entry)}>{file ? t('files.edit') : t('files.open')}</DropdownMenuItem>}
      {items.rename && <DropdownMenuItem onSelect={() => actions.rename(entry.name)}>{t('files.renameOrMove')}</DropdownMenuItem>}
      {items.copy && <DropdownMenuItem onSelect={() => actions.copy(entry.name)}>{t('files.copy')}</DropdownMenuItem>}
      {items.download && <DropdownMenuItem onSelect={() => actions.download(entry.name)}>{t('files.download')}</DropdownMenuItem>}
      {items.compress && <DropdownMenuItem onSelect={() => actions.compress([entry.name])}>{t('files.compress')}</DropdownMenuItem>}
      {items.decompress && <DropdownMenuItem onSelect={() => actions.decompress(entry.name)}>{t('files.decompress')}</DropdownMenuItem>}
      {items.remove && (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem danger onSelect={() => actions.remove([entry.name])}>
            {t('files.delete')}
          </DropdownMenuItem>
        </>
      )}
    </DropdownMenu>
  );
}
