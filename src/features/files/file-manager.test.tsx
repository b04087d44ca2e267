// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, makeServer, stubFetch } from '../../test/server-test-fixtures';
import { fakeLayout, fileEntry, folderEntry, listDocument, renderFiles, SERVER } from '../../test/files-test-support';

beforeEach(() => fakeLayout());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ROOT = [
  folderEntry('plugins'),
  fileEntry('server.properties'),
  fileEntry('eula.txt'),
  folderEntry('world'),
  fileEntry('server.jar', { mimetype: 'application/java-archive' }),
];

function stubList(byDir: Record<string, ReturnType<typeof fileEntry>[]>) {
  return stubFetch((url) => {
    if (url.pathname.endsWith('/files/list')) return json(200, listDocument(byDir[url.searchParams.get('directory') ?? '/'] ?? []));
    return json(404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] });
  });
}

const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.getAttribute('aria-label'));

describe('FileManager', () => {
  it('opens the new-file dialog when the URL asks for it (the command palette’s “New file”), once, and drops the ask from the URL', async () => {
    stubList({ '/plugins': [fileEntry('a.yml')] });
    const { router } = renderFiles(`/server/${SERVER.identifier}/files/plugins?open=new-file`);
    expect(await screen.findByRole('dialog', { name: 'New file' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe(`/server/${SERVER.identifier}/files/plugins`);
  });

  it('ignores the ask for a new file without file.create', async () => {
    stubList({ '/': ROOT });
    const { router } = renderFiles(`/server/${SERVER.identifier}/files?open=new-file`, ['file.read', 'file.read-content']);
    await screen.findByRole('row', { name: 'plugins' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?open=new-file');
  });

  it('lists folders first, then files by name, asking for the directory in the URL', async () => {
    const mock = stubList({ '/plugins/my dir': [fileEntry('a.yml')], '/': ROOT });
    renderFiles('/server/abcd1234/files/plugins/my%20dir');
    await screen.findByRole('row', { name: 'a.yml' });
    const url = new URL(String(mock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe(`/api/client/servers/${SERVER.uuid}/files/list`);
    expect(url.searchParams.get('directory')).toBe('/plugins/my dir');
    expect(screen.getByRole('navigation', { name: 'Folder path' })).toHaveTextContent('my dir');
  });

  it('sorts folders first and toggles the name order from the header', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'plugins' });
    expect(rowNames()).toEqual(['plugins', 'world', 'eula.txt', 'server.jar', 'server.properties']);
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(rowNames()).toEqual(['world', 'plugins', 'server.properties', 'server.jar', 'eula.txt']);
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('filters by name as you type', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'plugins' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by name' }), { target: { value: 'SERVER' } });
    await waitFor(() => expect(rowNames()).toEqual(['server.jar', 'server.properties']));
    expect(screen.getByText('2 of 5 items')).toBeInTheDocument();
  });

  it('keeps the filter in ?filter=, and a folder opened from the list starts unfiltered', async () => {
    stubList({ '/': ROOT, '/plugins': [fileEntry('a.yml')] });
    const { router } = renderFiles('/server/abcd1234/files?filter=plug');
    await waitFor(() => expect(rowNames()).toEqual(['plugins']));
    expect(screen.getByRole('searchbox', { name: 'Filter by name' })).toHaveValue('plug');
    fireEvent.click(within(screen.getByRole('row', { name: 'plugins' })).getByRole('link', { name: 'plugins' }));
    await screen.findByRole('row', { name: 'a.yml' });
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Filter by name' })).toHaveValue('');
  });

  it('creates a folder from its dialog, refusing a name already taken before asking the server', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const posts: unknown[] = [];
    const mock = stubList({ '/': ROOT });
    mock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      return Promise.resolve(json(200, listDocument(ROOT)));
    });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'plugins' });
    fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    const field = within(dialog).getByLabelText('Folder name');
    fireEvent.change(field, { target: { value: 'plugins' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await within(dialog).findByText('A file or folder with that name already exists.')).toBeInTheDocument();
    expect(posts).toEqual([]);
    fireEvent.change(field, { target: { value: 'maps' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toEqual([{ root: '/', name: 'maps' }]);
  });

  it('says a new folder name with “..” in it is not allowed, before asking the server', async () => {
    const mock = stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'plugins' });
    fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    fireEvent.change(within(dialog).getByLabelText('Folder name'), { target: { value: '../x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await within(dialog).findByText(/That name is not allowed/)).toBeInTheDocument();
    expect(mock.mock.calls.some(([input]) => String(input).includes('create-folder'))).toBe(false);
  });

  it('counts one entry as “1 item”', async () => {
    stubList({ '/': [fileEntry('eula.txt')] });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'eula.txt' });
    expect(screen.getByText('1 item')).toBeInTheDocument();
  });

  it('selects with click, shift-click and Ctrl+A, and offers mass actions', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files');
    const first = await screen.findByRole('row', { name: 'plugins' });
    fireEvent.click(first);
    fireEvent.click(screen.getByRole('row', { name: 'server.jar' }), { shiftKey: true });
    const bar = screen.getByRole('toolbar', { name: 'Selected items' });
    expect(within(bar).getByText('4 selected')).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('row', { name: 'server.jar' }), { key: 'a', ctrlKey: true });
    expect(within(bar).getByText('5 selected')).toBeInTheDocument();
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 5 items?' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(5);
  });

  it('clears the selection after a bulk delete or compress', async () => {
    stubFetch((url) => {
      if (url.pathname.endsWith('/files/list')) return json(200, listDocument(ROOT));
      if (url.pathname.endsWith('/files/delete')) return new Response(null, { status: 204 });
      if (url.pathname.endsWith('/files/compress')) return json(200, { object: 'file_object', attributes: fileEntry('archive.tar.gz') });
      return json(404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] });
    });
    renderFiles('/server/abcd1234/files');
    const row = await screen.findByRole('row', { name: 'eula.txt' });
    fireEvent.keyDown(row, { key: 'a', ctrlKey: true });
    fireEvent.click(within(screen.getByRole('toolbar', { name: 'Selected items' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 5 items?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // The list here still holds them (the stub does not delete): the selection clears all the same.
    await waitFor(() => expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument());

    fireEvent.keyDown(screen.getByRole('row', { name: 'eula.txt' }), { key: 'a', ctrlKey: true });
    fireEvent.click(within(screen.getByRole('toolbar', { name: 'Selected items' })).getByRole('button', { name: 'Compress' }));
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
  });

  it('moves with the arrow keys and extends the selection with Shift from where it moved to', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files');
    const first = await screen.findByRole('row', { name: 'plugins' });
    fireEvent.click(first);
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('world'));
    fireEvent.keyDown(screen.getByRole('row', { name: 'world' }), { key: 'ArrowDown', shiftKey: true });
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('eula.txt'));
    const selected = screen.getAllByRole('row').filter((r) => r.getAttribute('aria-selected') === 'true');
    expect(selected.map((r) => r.getAttribute('aria-label'))).toEqual(['plugins', 'world', 'eula.txt']);
    fireEvent.keyDown(screen.getByRole('row', { name: 'eula.txt' }), { key: 'Escape' });
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
  });

  it('names the first 15 and counts the rest in the delete confirmation', async () => {
    const many = Array.from({ length: 20 }, (_, i) => fileEntry(`f${String(i).padStart(2, '0')}.txt`));
    stubList({ '/': many });
    renderFiles('/server/abcd1234/files');
    const row = await screen.findByRole('row', { name: 'f00.txt' });
    fireEvent.keyDown(row, { key: 'a', ctrlKey: true });
    fireEvent.keyDown(row, { key: 'Delete' });
    const dialog = await screen.findByRole('dialog', { name: 'Delete 20 items?' });
    expect(within(dialog).getByText('and 5 more')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(16);
  });

  it('shows no write controls to a user who may only read', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files', ['file.read']);
    await screen.findByRole('row', { name: 'plugins' });
    for (const name of ['New folder', 'New file', 'Upload']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
    // One hint for everything hidden, not one per control.
    expect(screen.getAllByRole('note')).toHaveLength(1);
    expect(screen.getByRole('note')).toHaveTextContent('Needs file.create, file.read-content, file.update, file.archive and file.delete permissions');
    // Files cannot be opened without file.read-content; folders still can.
    expect(within(screen.getByRole('row', { name: 'eula.txt' })).queryByRole('link')).not.toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: 'plugins' })).getByRole('link', { name: 'plugins' })).toBeInTheDocument();
  });

  it('renders only the visible rows of a 10,000-entry folder', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => fileEntry(`file-${String(i).padStart(5, '0')}.txt`));
    stubList({ '/': many });
    renderFiles('/server/abcd1234/files');
    await screen.findByRole('row', { name: 'file-00000.txt' });
    expect(screen.getAllByRole('row').length).toBeLessThan(60);
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '10001');
  });

  it('shows a suspended server’s file actions disabled with the reason, and asks for nothing that would fail', async () => {
    const mock = stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files', ['*'], makeServer({ status: 'suspended', is_suspended: true }));
    expect(await screen.findByText(/cannot be listed or changed because the server is suspended/)).toBeInTheDocument();
    for (const name of ['New folder', 'New file', 'Upload']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(/because the server is suspended/);
    }
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(mock).not.toHaveBeenCalled();
  });

  it('offers no “Try again” for a folder the server state refuses', async () => {
    stubFetch((url) =>
      url.pathname.endsWith('/files/list')
        ? json(409, { errors: [{ code: 'ServerStateConflictException', status: '409', detail: 'This server is currently suspended.' }] })
        : json(404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] }),
    );
    renderFiles('/server/abcd1234/files');
    expect(await screen.findByText('This server is currently suspended.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('gives a read-only member no selection checkboxes', async () => {
    stubList({ '/': ROOT });
    renderFiles('/server/abcd1234/files', ['file.read', 'file.read-content']);
    const row = await screen.findByRole('row', { name: 'plugins' });
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    fireEvent.keyDown(row, { key: 'a', ctrlKey: true });
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
  });

  it('explains a folder that does not exist', async () => {
    stubList({});
    stubFetch(() =>
      json(404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'The requested file or directory could not be found.' }] }),
    );
    renderFiles('/server/abcd1234/files/nope');
    expect(await screen.findByText('This folder does not exist')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the top folder' })).toHaveAttribute('href', '/server/abcd1234/files');
  });
});
