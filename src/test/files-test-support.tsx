import { Outlet } from 'react-router';
import { vi } from 'vitest';
import { renderRoutes } from './render-routes';
import type { FileObject } from '../contract/files';
import { ServerPermissionsProvider } from '../lib/permissions';
import { serverQueries } from '../features/servers/api';
import { makeServer, serverDocument } from './server-test-fixtures';
import { FileEditorPage } from '../features/files/file-editor-page';
import { FileManagerPage } from '../features/files/file-manager-page';

/* the two file routes over a stubbed fetch, with a chosen permission list. */

export const SERVER = makeServer();

export function fileEntry(name: string, opts: Partial<FileObject> = {}): FileObject {
  return {
    name,
    mode: '-rw-r--r--',
    mode_bits: '644',
    size: 1234,
    is_file: true,
    is_symlink: false,
    mimetype: 'text/plain; charset=utf-8',
    created_at: '2024-05-01T10:00:00Z',
    modified_at: '2024-05-01T10:00:00Z',
    ...opts,
  };
}

export const folderEntry = (name: string) => fileEntry(name, { is_file: false, size: 4096, mimetype: 'inode/directory', mode: 'drwxr-xr-x' });

export function listDocument(entries: FileObject[]) {
  return { object: 'list', data: entries.map((attributes) => ({ object: 'file_object', attributes })) };
}

/** jsdom lays nothing out; give every element a size so the virtualiser renders rows. */
export function fakeLayout(height = 600) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    bottom: height,
    right: 800,
    width: 800,
    height,
    toJSON: () => ({}),
  });
  for (const [prop, value] of [
    ['offsetHeight', height],
    ['clientHeight', height],
    ['offsetWidth', 800],
    ['clientWidth', 800],
  ] as const) {
    vi.spyOn(HTMLElement.prototype, prop, 'get').mockReturnValue(value);
  }
}

/** The file routes at `path` for a member holding `permissions`, on `server` (e.g. a suspended one). */
export function renderFiles(path: string, permissions: string[] = ['*'], server = SERVER) {
  return renderRoutes(
    [
      {
        path: '/server/:id',
        element: (
          <ServerPermissionsProvider permissions={permissions}>
            <Outlet />
          </ServerPermissionsProvider>
        ),
        children: [
          { path: 'files/*', element: <FileManagerPage /> },
          { path: 'file/*', element: <FileEditorPage /> },
        ],
      },
    ],
    path,
    (client) =>
      client.setQueryData(
        serverQueries.detail(SERVER.identifier).queryKey,
        serverDocument(server, { is_server_owner: permissions.includes('*'), user_permissions: permissions }),
      ),
  );
}
