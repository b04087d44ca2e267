import { useRef, type RefObject } from 'react';
import { Button } from '../../components/ui/button';
import type { FilePermissions } from './use-file-permissions';

interface Props {
  filter: string;
  onFilter: (value: string) => void;
  filterRef: RefObject<HTMLInputElement | null>;
  perms: FilePermissions;
  onNewFolder: () => void;
  onNewFile: () => void;
  onUpload: (files: File[]) => void;
}

/** Name filter and the create/upload buttons the user may use. */
export function FileToolbar({ filter, onFilter, filterRef, perms, onNewFolder, onNewFile, onUpload }: Props) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="relative min-w-0 flex-1 basis-full sm:basis-48">
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-zinc-500"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <circle cx="11" cy="11" r="6.5" />
          <path strokeLinecap="round" d="m16 16 4 4" />
        </svg>
        <input
          ref={filterRef}
          type="search"
          aria-label="Filter by name"
          placeholder="Filter by name  ( / )"
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filter) {
              e.preventDefault();
              onFilter('');
            }
          }}
          className="min-h-9 w-full rounded-md bg-zinc-900 py-1.5 pl-8 pr-3 text-sm text-zinc-100 ring-1 ring-inset ring-zinc-700 placeholder:text-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-500"
        />
      </div>
      {perms.create && (
        <>
          <Button variant="secondary" size="sm" onClick={onNewFolder}>
            New folder
          </Button>
          {perms.readContent && (
            <Button variant="secondary" size="sm" onClick={onNewFile}>
              New file
            </Button>
          )}
          <Button size="sm" onClick={() => picker.current?.click()}>
            Upload
          </Button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Files to upload"
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = '';
              if (files.length) onUpload(files);
            }}
          />
        </>
      )}
    </div>
  );
}
