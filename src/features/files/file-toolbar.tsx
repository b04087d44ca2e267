import { useRef, type RefObject } from 'react';
import { Button } from '../../components/ui/button';
import { SearchInput } from '../../components/ui/search-input';
import { PermissionHint } from '../../lib/permissions';
import { useT } from './messages';
import type { FilePermissions } from './use-file-permissions';

interface Props {
  filter: string;
  onFilter: (value: string) => void;
  onFilterCommit: (value: string) => void;
  filterRef: RefObject<HTMLInputElement | null>;
  perms: FilePermissions;
  /** The id of the element saying why nothing can be changed: the buttons `perms` allow show disabled, without the filter. */
  disabledBy?: string;
  onNewFolder: () => void;
  onNewFile: () => void;
  onUpload: (files: File[]) => void;
}

const FILE_ACTION_PERMISSIONS = ['file.create', 'file.read-content', 'file.update', 'file.archive', 'file.delete'] as const;

/** Name filter and the create/upload buttons the user may use. */
export function FileToolbar({ filter, onFilter, onFilterCommit, filterRef, perms, disabledBy, onNewFolder, onNewFile, onUpload }: Props) {
  const t = useT();
  const picker = useRef<HTMLInputElement>(null);
  if (disabledBy) {
    const labels = perms.create ? [t('files.newFolder'), ...(perms.readContent ? [t('files.newFile')] : []), t('files.upload')] : [];
    return (
      <div className="flex flex-wrap items-center gap-2">
        {labels.map((label) => (
          <Button key={label} variant="secondary" size="sm" disabled aria-describedby={disabledBy}>
            {label}
          </Button>
        ))}
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchInput
        ref={filterRef}
        size="sm"
        label={t('files.filter.label')}
        placeholder={t('files.filter.placeholder')}
        aria-keyshortcuts="/"
        value={filter}
        onValueChange={onFilter}
        onCommit={onFilterCommit}
        className="min-w-0 flex-1 basis-full sm:basis-48"
      />
      {perms.create && (
        <>
          <Button variant="secondary" size="sm" onClick={onNewFolder}>
            {t('files.newFolder')}
          </Button>
          {perms.readContent && (
            <Button variant="secondary" size="sm" onClick={onNewFile}>
              {t('files.newFile')}
            </Button>
          )}
          <Button size="sm" onClick={() => picker.current?.click()}>
            {t('files.upload')}
          </Button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label={t('files.upload.pickerLabel')}
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = '';
              if (files.length) onUpload(files);
            }}
          />
        </>
      )}
      {/* One line for every file action the subuser lacks (toolbar, row menus, selection, opening). */}
      <PermissionHint permission={FILE_ACTION_PERMISSIONS} className="basis-full" />
    </div>
  );
}
