import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../components/ui/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormError } from '../../components/ui/field';
import { PermissionHint } from '../../lib/permissions';
import { isMac, useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { Spinner } from '../../components/ui/spinner';
import { useBlockingCondition, type ServerRef } from '../servers/api';
import { fileQueries, useDownloadFile, useWriteFile } from './api';
import type { EditorHandle } from './code-editor';
import { EditorLoadError } from './editor-load-error';
import { LANGUAGE_LABELS, languageIdFor } from './languages';
import { useT } from './messages';
import { baseName, directoryHref, editorHref, parentPath } from './paths';
import { useFilePermissions } from './use-file-permissions';
import { useUnsavedGuard } from './use-unsaved-guard';

const CodeEditor = lazy(() => import('./code-editor').then((m) => ({ default: m.CodeEditor })));

interface Props {
  server: ServerRef;
  file: string;
  isNew: boolean;
}

export function FileEditor({ server, file, isNew }: Props) {
  const { routeId: serverId } = server;
  const navigate = useNavigate();
  const t = useT();
  const perms = useFilePermissions();
  // While the server is suspended, installing… the panel refuses reads and writes alike.
  const blocked = useBlockingCondition();
  // Writing goes through files/write (file.create); changing an existing file is also an update.
  const canSave = isNew ? perms.create : perms.create && perms.update;
  const contents = useQuery({ ...fileQueries.contents(server, file), enabled: !isNew && !blocked });
  const write = useWriteFile(server);

  // The text the editor starts from: read afresh on opening (not a cached copy), then captured
  // once, so later refetches never replace what is being typed.
  const [initial, setInitial] = useState<string | null>(isNew ? '' : null);
  if (initial === null && contents.isFetchedAfterMount && contents.data !== undefined) setInitial(contents.data);
  const binary = initial !== null && initial.includes('\u0000');
  const readOnly = !canSave || binary || blocked !== null;
  const editorKeys = useMemo<ShortcutGroup>(
    () => ({ title: t('files.editor.keysTitle'), shortcuts: [{ keys: [['Mod', 'S']], description: t('files.editor.keysSave') }] }),
    [t],
  );
  useShortcuts(editorKeys, !readOnly);

  const [dirty, setDirty] = useState(false);
  const editor = useRef<EditorHandle | null>(null);
  const blocker = useUnsavedGuard(dirty);

  const save = useCallback(async () => {
    const handle = editor.current;
    if (!handle || readOnly || write.isPending) return;
    const { text, doc } = handle.snapshot();
    try {
      await write.mutateAsync({ file, content: text });
      handle.markSaved(doc);
      toast.success(t('files.editor.saved', { name: baseName(file) }));
      if (isNew) navigate(editorHref(serverId, file), { replace: true });
    } catch {
      // Shown from the mutation's own error, above the editor.
    }
  }, [readOnly, write, file, isNew, navigate, serverId, t]);

  // Ctrl/Cmd+S anywhere on the page saves instead of opening the browser's "Save page" dialog.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's' || e.defaultPrevented) return;
      e.preventDefault();
      void save();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  const folder = parentPath(file);
  const name = baseName(file);
  const language = languageIdFor(name);
  const downloadFile = useDownloadFile(server);
  const download = perms.readContent && !isNew && !blocked ? () => downloadFile.mutate(file) : null;
  const onReady = useCallback((h: EditorHandle | null) => {
    editor.current = h;
  }, []);

  return (
    <div className="flex flex-col gap-3">
      <div className="sticky top-14 z-10 -mx-4 flex flex-wrap items-end justify-between gap-3 bg-zinc-950/95 px-4 py-2 backdrop-blur">
        <div className="min-w-0">
          <Link to={directoryHref(serverId, folder)} className="inline-flex max-w-full items-center gap-1 text-sm text-sky-400 hover:text-sky-300">
            <span aria-hidden="true">←</span>
            <span className="truncate font-mono">{folder === '/' ? '/home/container' : folder}</span>
          </Link>
          <h2 className="mt-1 flex min-w-0 items-center gap-2 text-xl font-semibold text-white">
            <span className="truncate font-mono" title={file}>
              {name}
            </span>
            {dirty && (
              <span
                className="size-2.5 shrink-0 rounded-full bg-amber-400"
                role="img"
                aria-label={t('files.editor.unsaved')}
                title={t('files.editor.unsaved')}
              />
            )}
          </h2>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isNew && <Badge tone="info">{t('files.newFile')}</Badge>}
          {readOnly && initial !== null && <Badge tone="warning">{t('files.editor.readOnly')}</Badge>}
          <Badge>{language ? LANGUAGE_LABELS[language] : t('files.editor.plainText')}</Badge>
          {download && (
            <Button size="sm" variant="secondary" onClick={download} loading={downloadFile.isPending}>
              {t('files.download')}
            </Button>
          )}
          {!readOnly && (
            <Button
              size="sm"
              onClick={() => void save()}
              loading={write.isPending}
              disabled={initial === null}
              aria-keyshortcuts={isMac ? 'Meta+S' : 'Control+S'}
            >
              {t('files.editor.save')}{' '}
              <kbd className="hidden rounded bg-sky-900/60 light:bg-sky-800/60 px-1 font-sans text-xs sm:inline">{isMac ? '⌘S' : 'Ctrl+S'}</kbd>
            </Button>
          )}
        </div>
      </div>
      {!canSave && <PermissionHint permission={isNew ? 'file.create' : ['file.create', 'file.update']} />}
      {binary && <p className="text-sm text-amber-300">{t('files.editor.binary')}</p>}
      <FormError message={write.error?.message} />
      {blocked ? (
        <div role="status" className="mx-auto my-8 max-w-lg rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
          <h3 className="text-lg font-semibold text-white">{t('files.editor.blockedTitle')}</h3>
          <p className="mt-2 text-sm text-zinc-400">{t('files.editor.blockedDetail', { reason: blocked.reason })}</p>
        </div>
      ) : initial === null ? (
        contents.isError ? (
          <EditorLoadError
            error={contents.error}
            onDownload={download}
            folderHref={directoryHref(serverId, folder)}
            onRetry={() => void contents.refetch()}
          />
        ) : (
          <div className="flex min-h-80 items-center justify-center rounded-lg ring-1 ring-zinc-800">
            <Spinner label={t('files.editor.opening')} />
          </div>
        )
      ) : (
        // No overflow clipping here: CodeMirror's search panel sticks to the window while scrolling.
        <div className="rounded-lg ring-1 ring-zinc-800">
          <Suspense
            fallback={
              <div className="flex min-h-80 items-center justify-center">
                <Spinner label={t('files.editor.loading')} />
              </div>
            }
          >
            <CodeEditor
              initialDoc={initial}
              fileName={name}
              readOnly={readOnly}
              label={t('files.editor.contentsLabel', { name })}
              onDirtyChange={setDirty}
              onReady={onReady}
            />
          </Suspense>
        </div>
      )}
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => {
          if (!open && blocker.state === 'blocked') blocker.reset();
        }}
        title={t('files.editor.leaveTitle')}
        description={t('files.editor.leaveDescription', { name })}
        confirmLabel={t('files.editor.leaveConfirm')}
        danger
        onConfirm={() => {
          if (blocker.state === 'blocked') blocker.proceed();
        }}
      />
    </div>
  );
}
