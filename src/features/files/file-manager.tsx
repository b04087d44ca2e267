import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { FileObject } from '../../contract/files';
import { Button } from '../../components/ui/button';
import { EmptyState, describeError } from '../../components/ui/states';
import { Spinner } from '../../components/ui/spinner';
import { useSearchParamInput } from '../../lib/use-search-param';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { usePageIntent } from '../../lib/use-page-intent';
import { ActionStatus } from './action-status';
import { serverQueries, useBlockingCondition, type ServerRef } from '../servers/api';
import { fileQueries, useCompressFiles, useCopyFile, useDecompressFile, useDownloadFile } from './api';
import { Breadcrumbs } from './breadcrumbs';
import type { FileActions } from './file-actions';
import type { DialogState } from './file-dialogs';
import { isEditable } from './file-kinds';
import { FileList } from './file-list';
import { FileToolbar } from './file-toolbar';
import { directoryHref, editorHref, joinPath, parentPath, segments } from './paths';
import { EMPTY_SELECTION, pruneSelection, selectedInOrder, type Selection } from './selection';
import { SelectionBar } from './selection-bar';
import { filterEntries, nextSort, sortEntries, type Sort, type SortKey } from './sort';
import { UploadList } from './upload-list';
import { useBackgroundActions } from './use-background-actions';
import { useFileDrop } from './use-file-drop';
import { useT } from './messages';
import { useFilePermissions } from './use-file-permissions';
import { useUploads } from './use-uploads';

// Dialogs (and the form library under them) load the first time one opens, not with the list.
const FileDialogs = lazy(() => import('./file-dialogs').then((m) => ({ default: m.FileDialogs })));

const NO_ENTRIES: FileObject[] = [];
type SelectionUpdate = Selection | ((prev: Selection) => Selection);

export function FileManager({ server, dir }: { server: ServerRef; dir: string }) {
  const { routeId: serverId } = server;
  const navigate = useNavigate();
  const t = useT();
  const blocked = useBlockingCondition();
  // Nothing can be changed while the server is blocked: every control shows disabled instead.
  const allowed = useFilePermissions();
  const perms = useMemo(() => (blocked ? { ...allowed, create: false, update: false, delete: false, archive: false } : allowed), [blocked, allowed]);
  const list = useQuery({ ...fileQueries.list(server, dir), enabled: blocked === null });
  // A 409 means the server's state changed since it was loaded: reload it, so the page says why.
  const qc = useQueryClient();
  const conflict = list.error?.status === 409;
  useEffect(() => {
    if (conflict) void qc.invalidateQueries({ queryKey: serverQueries.detail(serverId).queryKey });
  }, [conflict, qc, serverId]);
  const entries = list.data ?? NO_ENTRIES;

  // Per-directory view state: a new folder starts unselected; sort carries over. The filter is
  // `?filter=` (links to another folder carry none); the list follows the box as it is typed.
  const [sort, setSort] = useState<Sort>({ key: 'name', order: 'asc' });
  const filter = useSearchParamInput('filter');
  const [filterDir, setFilterDir] = useState(dir);
  if (filterDir !== dir) {
    // A filter typed but not yet applied belongs to the folder it was typed in.
    setFilterDir(dir);
    filter.setDraft(filter.value);
  }
  const deferredFilter = useDeferredValue(filter.draft);
  const [selState, setSelState] = useState<{ dir: string; sel: Selection }>({ dir, sel: EMPTY_SELECTION });
  const [nav, setNav] = useState<{ dir: string; from: string | null; moved: boolean }>({ dir, from: null, moved: false });
  if (nav.dir !== dir) {
    // Coming up out of a subfolder: start on the folder we left.
    const inside = nav.dir.startsWith(dir === '/' ? '/' : `${dir}/`);
    setNav({ dir, from: inside ? (segments(nav.dir)[segments(dir).length] ?? null) : null, moved: true });
  }

  const sorted = useMemo(() => sortEntries(entries, sort), [entries, sort]);
  const visible = useMemo(() => filterEntries(sorted, deferredFilter), [sorted, deferredFilter]);
  const visibleNames = useMemo(() => visible.map((e) => e.name), [visible]);
  const present = useMemo(() => new Set(entries.map((e) => e.name)), [entries]);
  const selection = useMemo(() => (selState.dir === dir ? pruneSelection(selState.sel, present) : EMPTY_SELECTION), [selState, dir, present]);
  const selectedNames = useMemo(() => selectedInOrder(selection, visibleNames), [selection, visibleNames]);
  const setSelection = useCallback(
    (next: SelectionUpdate) => setSelState((s) => ({ dir, sel: typeof next === 'function' ? next(s.dir === dir ? s.sel : EMPTY_SELECTION) : next })),
    [dir],
  );

  const [dialog, setDialog] = useState<DialogState>(null);
  // The command palette's "New file": the same dialog as the toolbar's button, once the names it checks are known.
  usePageIntent('new-file', perms.create && perms.readContent && list.data !== undefined, () => setDialog({ kind: 'new-file' }));
  const bg = useBackgroundActions();
  const uploads = useUploads(server);
  const { mutateAsync: copyFile } = useCopyFile(server);
  const { mutate: downloadFile } = useDownloadFile(server);
  const { mutateAsync: compressFiles } = useCompressFiles(server);
  const { mutateAsync: decompressFile } = useDecompressFile(server);

  const hrefFor = useCallback(
    (e: FileObject): string | null => {
      const path = joinPath(dir, e.name);
      if (!e.is_file) return directoryHref(serverId, path);
      return perms.readContent && isEditable(e) ? editorHref(serverId, path) : null;
    },
    [dir, serverId, perms.readContent],
  );
  const { run } = bg;
  const actions = useMemo<FileActions>(
    () => ({
      open: (e) => {
        const href = hrefFor(e);
        if (href) navigate(href);
      },
      rename: (name) => setDialog({ kind: 'rename', name }),
      move: (names) => setDialog({ kind: 'move', names }),
      remove: (names) => setDialog({ kind: 'delete', names }),
      copy: (name) =>
        run(
          t('files.copy.running', { name }),
          () => copyFile({ location: joinPath(dir, name) }),
          () => t('files.copy.done', { name }),
          (error) => t('files.copy.failed', { name, error }),
        ),
      download: (name) => downloadFile(joinPath(dir, name)),
      compress: (names) =>
        run(
          t('files.compress.running', { count: names.length, name: names[0] ?? '' }),
          () => compressFiles({ root: dir, files: names }),
          (archive) => t('files.compress.done', { name: archive.name }),
          (error) => t('files.compress.failed', { count: names.length, name: names[0] ?? '', error }),
        ),
      decompress: (name) =>
        run(
          t('files.decompress.running', { name }),
          () => decompressFile({ root: dir, file: name }),
          () => t('files.decompress.done', { name }),
          (error) => t('files.decompress.failed', { name, error }),
        ),
    }),
    [hrefFor, navigate, run, copyFile, downloadFile, compressFiles, decompressFile, dir, t],
  );

  const upload = useCallback(
    (files: File[], rejected: string[] = []) => {
      uploads.add(files, dir);
      if (rejected.length) uploads.reject(rejected, dir, t('files.upload.folderRejected'));
    },
    [uploads, dir, t],
  );
  const drop = useFileDrop(perms.create, upload);

  const filterRef = useRef<HTMLInputElement>(null);
  useSlashFocus(filterRef);

  let body;
  if (blocked) {
    body = (
      <div id="files-blocked" role="status" className="rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
        <p className="font-semibold text-white">{t('files.blocked.title')}</p>
        <p className="mt-1 text-sm text-zinc-400">{t('files.blocked.detail', { reason: blocked.reason })}</p>
      </div>
    );
  } else if (list.isPending) {
    body = (
      <div className="flex min-h-48 items-center justify-center rounded-lg ring-1 ring-zinc-800">
        <Spinner label={t('files.folder.loading')} />
      </div>
    );
  } else if (list.isError) {
    const { title, detail } = describeError(list.error);
    body = (
      <div role="alert" className="rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
        <p className="font-semibold text-white">{list.error.status === 404 ? t('files.folder.missingTitle') : title}</p>
        <p className="mt-1 text-sm text-zinc-400">{list.error.status === 404 ? t('files.folder.missingDetail') : detail}</p>
        <div className="mt-4 flex justify-center gap-3">
          {/* Retrying cannot help with a refusal (403), a missing folder (404) or a server state (409). */}
          {![403, 404, 409].includes(list.error.status) && (
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('files.retry')}
            </Button>
          )}
          {dir !== '/' && (
            <Link to={directoryHref(serverId, '/')} className="self-center text-sm font-medium text-sky-400 hover:text-sky-300">
              {t('files.folder.toTop')}
            </Link>
          )}
        </div>
      </div>
    );
  } else if (entries.length === 0) {
    body = <EmptyState title={t('files.folder.emptyTitle')}>{perms.create ? t('files.folder.emptyHint') : null}</EmptyState>;
  } else if (visible.length === 0) {
    body = <EmptyState title={t('files.folder.noMatch', { filter: deferredFilter.trim() })} />;
  } else {
    body = (
      <FileList
        key={dir}
        entries={visible}
        perms={perms}
        actions={actions}
        hrefFor={hrefFor}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSort={(key: SortKey) => setSort((s) => nextSort(s, key))}
        onParent={() => dir !== '/' && navigate(directoryHref(serverId, parentPath(dir)))}
        initialName={nav.from}
        autoFocus={nav.moved}
        label={t('files.list.label', { dir })}
      />
    );
  }

  return (
    // Room below the list for the floating selection bar, so it never hides the last rows.
    <div className={selectedNames.length > 0 ? 'flex flex-col gap-3 pb-16' : 'flex flex-col gap-3'} {...drop.handlers}>
      <div className="flex flex-col gap-1">
        <h2 className="text-xl font-semibold text-white">{t('files.title')}</h2>
        <Breadcrumbs serverId={serverId} dir={dir} />
      </div>
      <FileToolbar
        filter={filter.draft}
        onFilter={filter.setDraft}
        onFilterCommit={filter.commit}
        filterRef={filterRef}
        perms={allowed}
        disabledBy={blocked ? 'files-blocked' : undefined}
        onNewFolder={() => setDialog({ kind: 'new-folder' })}
        onNewFile={() => setDialog({ kind: 'new-file' })}
        onUpload={upload}
      />
      <SelectionBar names={selectedNames} perms={perms} actions={actions} onClear={() => setSelection(EMPTY_SELECTION)} />
      <ActionStatus actions={bg.actions} onDismiss={bg.dismiss} />
      <UploadList items={uploads.items} onRemove={uploads.remove} />
      {body}
      {list.isSuccess && entries.length > 0 && (
        <p className="text-xs text-zinc-400" aria-live="polite">
          {visible.length === entries.length
            ? t('files.folder.count', { count: entries.length })
            : t('files.folder.countFiltered', { shown: visible.length, count: entries.length })}
          {list.isFetching && ` ${t('files.folder.refreshing')}`}
        </p>
      )}
      {drop.dragging && (
        <div className="fixed inset-0 z-40 flex items-center justify-center bg-zinc-950/80 p-6">
          <div className="rounded-xl border-2 border-dashed border-sky-500 px-10 py-12 text-center text-sky-100">
            <p className="text-lg font-semibold">{t('files.upload.drop')}</p>
            <p className="mt-1 break-all font-mono text-sm text-sky-300">{dir}</p>
          </div>
        </div>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <FileDialogs
            state={dialog}
            onClose={() => setDialog(null)}
            onDone={() => setSelection(EMPTY_SELECTION)}
            server={server}
            dir={dir}
            entries={entries}
          />
        </Suspense>
      )}
    </div>
  );
}
