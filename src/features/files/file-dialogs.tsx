import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { createFolderSchema, renameFilesSchema, type FileObject } from '../../contract/files';
import type { ServerRef } from '../servers/api';
import { useCreateFolder, useDeleteFiles, useRenameFiles } from './api';
import { DeleteDialog } from './delete-dialog';
import { NameDialog } from './name-dialog';
import { baseName, editorHref, joinPath, nameProblem, newNameProblem, parentPath, relativePath } from './paths';
import { moveProblem, renameProblem } from './move-rules';

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

const Path = ({ path }: { path: string }) => <span className="break-all font-mono text-zinc-300">{path}</span>;

/** The dialogs of the file manager; each runs its request and shows its own error. */
export function FileDialogs({ state, onClose, onDone, server, dir, entries }: Props) {
  const serverId = server.routeId;
  const navigate = useNavigate();
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
        title="New folder"
        label="Folder name"
        initialValue=""
        confirmLabel="Create folder"
        validate={(v) => newNameProblem(v) ?? (taken(v) ? 'A file or folder with that name already exists.' : null)}
        preview={(v) =>
          v.trim() ? (
            <>
              Creates <Path path={joinPath(dir, v.trim())} />
            </>
          ) : null
        }
        request={{ schema: createFolderSchema, build: (name) => ({ root: dir, name }) }}
        requestFields={['name']}
        mutation={createFolder}
        onSubmit={(name, signal) => createFolder.mutateAsync({ root: dir, name, signal })}
      />
      <NameDialog
        open={state?.kind === 'new-file'}
        onOpenChange={close}
        title="New file"
        description="The editor opens with an empty file; it is created when you save."
        label="File name"
        initialValue=""
        confirmLabel="Open editor"
        validate={(v) => newNameProblem(v) ?? (taken(v) ? 'A file or folder with that name already exists.' : null)}
        preview={(v) =>
          v.trim() ? (
            <>
              Will be saved as <Path path={joinPath(dir, v.trim())} />
            </>
          ) : null
        }
        onSubmit={(name) => navigate(editorHref(serverId, joinPath(dir, name), { isNew: true }))}
      />
      {state?.kind === 'rename' && (
        <NameDialog
          open
          onOpenChange={close}
          title={`Rename “${state.name}”`}
          description="Type a new name, or a path such as ../backup/name or /plugins/name to move it."
          label="New name or path"
          initialValue={state.name}
          selectLength={state.name.lastIndexOf('.') > 0 ? state.name.lastIndexOf('.') : state.name.length}
          confirmLabel="Rename"
          validate={(v) => nameProblem(v, { allowSlash: true }) ?? renameProblem(dir, state.name, v, folders.has(state.name))}
          preview={(v) =>
            v.trim() && nameProblem(v, { allowSlash: true }) === null ? (
              <>
                New path: <Path path={joinPath(dir, v.trim())} />
              </>
            ) : null
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
          title={state.names.length === 1 ? `Move “${state.names[0] ?? ''}”` : `Move ${state.names.length} items`}
          description="Type the folder to move into, relative to this one (../) or from the root (/)."
          label="Destination folder"
          initialValue={dir}
          confirmLabel="Move"
          validate={(v) =>
            v.trim()
              ? moveProblem(
                  dir,
                  state.names.filter((n) => folders.has(n)),
                  v,
                )
              : 'Enter a folder.'
          }
          preview={(v) =>
            v.trim() ? (
              <>
                Moves into <Path path={joinPath(dir, v.trim())} />
              </>
            ) : null
          }
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
