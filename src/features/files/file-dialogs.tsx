import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { createFolderSchema, renameFilesSchema, type FileObject } from '../../contract/files';
import type { ServerRef } from '../servers/api';
import { useCreateFolder, useDeleteFiles, useRenameFiles } from './api';
import { DeleteDialog } from './delete-dialog';
import { NameDialog } from './name-dialog';
import { baseName, editorHref, joinPath, nameProblem, newNameProblem, parentPath, relativePath } from './paths';
import { moveProblem, renameProblem } from './move-rules';
import { T, useT } from './messages';

export type DialogState =
  | { kind: 'new-folder' }
  | { kind: 'new-file' }
  | { kind: 'rename'; name: string }
  | { kind: 'move'; names: string[] }
  | { kind: 'delete'; names: string[] }
  | null;

interface Props {
  state: DialogState;
  onClose: () => void;
  /** After a move or delete succeeded: the selection those acted on is spent. */
  onDone?: () => void;
  server: ServerRef;
  dir: string;
  entries: readonly FileObject[];
}

/** What the dialog would do, with the path it resolves to set apart (`<0>{path}</0>` in the message). */
const Preview = ({
  k,
  path,
}: {
  k: 'files.newFolder.preview' | 'files.newFile.preview' | 'files.rename.preview' | 'files.move.preview';
  path: string;
}) => <T k={k} values={{ path }} components={{ 0: <span className="break-all font-mono text-zinc-300" /> }} />;

/** The dialogs of the file manager; each runs its request and shows its own error. */
export function FileDialogs({ state, onClose, onDone, server, dir, entries }: Props) {
  const serverId = server.routeId;
  const navigate = useNavigate();
  const t = useT();
  const createFolder = useCreateFolder(server);
  const rename = useRenameFiles(server);
  const remove = useDeleteFiles(server);
  const existing = useMemo(() => new Set(entries.map((e) => e.name)), [entries]);
  const folders = useMemo(() => new Set(entries.filter((e) => !e.is_file).map((e) => e.name)), [entries]);
  const close = (open: boolean) => !open && onClose();
  const taken = (value: string) => {
    const target = joinPath(dir, value.trim());
    return parentPath(target) === dir && existing.has(baseName(target));
  };

  return (
    <>
      <NameDialog
        open={state?.kind === 'new-folder'}
        onOpenChange={close}
        title={t('files.newFolder')}
        label={t('files.newFolder.label')}
        initialValue=""
        confirmLabel={t('files.newFolder.submit')}
        validate={(v) => newNameProblem(v) ?? (taken(v) ? t('files.name.taken') : null)}
        preview={(v) => (v.trim() ? <Preview k="files.newFolder.preview" path={joinPath(dir, v.trim())} /> : null)}
        request={{ schema: createFolderSchema, build: (name) => ({ root: dir, name }) }}
        requestFields={['name']}
        mutation={createFolder}
        onSubmit={(name, signal) => createFolder.mutateAsync({ root: dir, name, signal })}
      />
      <NameDialog
        open={state?.kind === 'new-file'}
        onOpenChange={close}
        title={t('files.newFile')}
        description={t('files.newFile.description')}
        label={t('files.newFile.label')}
        initialValue=""
        confirmLabel={t('files.newFile.submit')}
        validate={(v) => newNameProblem(v) ?? (taken(v) ? t('files.name.taken') : null)}
        preview={(v) => (v.trim() ? <Preview k="files.newFile.preview" path={joinPath(dir, v.trim())} /> : null)}
        onSubmit={(name) => navigate(editorHref(serverId, joinPath(dir, name), { isNew: true }))}
      />
      {state?.kind === 'rename' && (
        <NameDialog
          open
          onOpenChange={close}
          title={t('files.rename.title', { name: state.name })}
          description={t('files.rename.description')}
          label={t('files.rename.label')}
          initialValue={state.name}
          selectLength={state.name.lastIndexOf('.') > 0 ? state.name.lastIndexOf('.') : state.name.length}
          confirmLabel={t('files.rename')}
          validate={(v) => nameProblem(v, { allowSlash: true }) ?? renameProblem(dir, state.name, v, folders.has(state.name))}
          preview={(v) =>
            v.trim() && nameProblem(v, { allowSlash: true }) === null ? <Preview k="files.rename.preview" path={joinPath(dir, v.trim())} /> : null
          }
          request={{
            schema: renameFilesSchema,
            build: (v) => ({ root: dir, files: [{ from: state.name, to: relativePath(dir, joinPath(dir, v)) }] }),
          }}
          requestFields={['files', 'files.0.to']}
          mutation={rename}
          onSubmit={(v, signal) => rename.mutateAsync({ root: dir, files: [{ from: state.name, to: relativePath(dir, joinPath(dir, v)) }], signal })}
        />
      )}
      {state?.kind === 'move' && (
        <NameDialog
          open
          onOpenChange={close}
          title={t('files.move.title', { count: state.names.length, name: state.names[0] ?? '' })}
          description={t('files.move.description')}
          label={t('files.move.label')}
          initialValue={dir}
          confirmLabel={t('files.move')}
          validate={(v) =>
            v.trim()
              ? moveProblem(
                  dir,
                  state.names.filter((n) => folders.has(n)),
                  v,
                )
              : t('files.move.required')
          }
          preview={(v) => (v.trim() ? <Preview k="files.move.preview" path={joinPath(dir, v.trim())} /> : null)}
          mutation={rename}
          onSubmit={(v, signal) => {
            const dest = joinPath(dir, v);
            return rename
              .mutateAsync({
                root: dir,
                files: state.names.map((n) => ({ from: n, to: relativePath(dir, joinPath(dest, baseName(n))) })),
                signal,
              })
              .then(() => onDone?.());
          }}
        />
      )}
      <DeleteDialog
        names={state?.kind === 'delete' ? state.names : null}
        onOpenChange={close}
        mutation={remove}
        onConfirm={(names, signal) => remove.mutateAsync({ root: dir, files: names, signal }).then(() => onDone?.())}
      />
    </>
  );
}
