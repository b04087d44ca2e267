// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, makeServer, stubFetch } from '../../test/server-test-fixtures';
import { fakeLayout, renderFiles, SERVER } from '../../test/files-test-support';

beforeEach(() => {
  fakeLayout();
  // CodeMirror measures text through ranges, which jsdom does not lay out.
  const rect = new DOMRect(0, 0, 0, 0);
  Range.prototype.getClientRects = () => Object.assign([rect], { item: () => rect }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => rect;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stubContents(text: string, writes: { url: URL; body: unknown }[] = []) {
  // Like stubFetch, but also records the bodies of writes.
  const mock = stubFetch(() => new Response(null, { status: 204 }));
  mock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname.endsWith('/write')) writes.push({ url, body: init?.body });
    if (url.pathname.endsWith('/files/contents')) return Promise.resolve(new Response(text, { status: 200 }));
    return Promise.resolve(new Response(null, { status: 204 }));
  });
  return mock;
}

const editorText = () => document.querySelector('.cm-content')?.textContent ?? '';

describe('FileEditor', () => {
  it('opens the file in CodeMirror with Save for a user who may write', async () => {
    const mock = stubContents('motd=Hello');
    renderFiles('/server/abcd1234/file/server.properties');
    await waitFor(() => expect(editorText()).toContain('motd=Hello'));
    const url = new URL(String(mock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe(`/api/client/servers/${SERVER.uuid}/files/contents`);
    expect(url.searchParams.get('file')).toBe('/server.properties');
    expect(screen.getByRole('button', { name: /Save/ })).toBeInTheDocument();
    expect(screen.getByText('Properties')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /\/home\/container/ })).toHaveAttribute('href', '/server/abcd1234/files');
  });

  it('is read-only, without Save, when the user lacks file.update', async () => {
    stubContents('key: value');
    renderFiles('/server/abcd1234/file/config.yml', ['file.read', 'file.read-content', 'file.create']);
    await waitFor(() => expect(editorText()).toContain('key: value'));
    expect(screen.queryByRole('button', { name: /Save/ })).not.toBeInTheDocument();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/^Needs the file\.update permission/);
    expect(document.querySelector('.cm-content')).toHaveAttribute('aria-readonly', 'true');
  });

  it('saves a new file with Ctrl+S and drops ?new=1 from the URL', async () => {
    const writes: { url: URL; body: unknown }[] = [];
    stubContents('', writes);
    const { router } = renderFiles('/server/abcd1234/file/plugins/new.txt?new=1', ['file.read', 'file.read-content', 'file.create']);
    await waitFor(() => expect(document.querySelector('.cm-content')).not.toBeNull());
    expect(screen.getByText('New file')).toBeInTheDocument();
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.url.searchParams.get('file')).toBe('/plugins/new.txt');
    expect(writes[0]?.body).toBe('');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says why a file of an installing server cannot be opened, with no Save and no request', async () => {
    const mock = stubContents('motd=hi');
    renderFiles('/server/abcd1234/file/server.properties', ['*'], makeServer({ status: 'installing', is_installing: true }));
    expect(await screen.findByText(/cannot be read or saved because the server is being installed/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Save/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(mock).not.toHaveBeenCalled();
  });

  it('states the limit the panel sends with a file too large to edit', async () => {
    const detail = 'The file you are attempting to open is too large to view in the file editor.';
    stubFetch(() => json(400, { errors: [{ code: 'FileSizeTooLargeException', status: '400', detail, meta: { max_bytes: 5 * 1024 * 1024 } }] }));
    renderFiles('/server/abcd1234/file/logs/huge.log');
    expect(await screen.findByText(/The panel opens files of up to 5 MiB in the editor\./)).toBeInTheDocument();
  });

  it('explains a file too large to edit and offers a download', async () => {
    stubFetch(() =>
      json(400, {
        errors: [
          {
            code: 'FileSizeTooLargeException',
            status: '400',
            detail: 'The file you are attempting to open is too large to view in the file editor.',
          },
        ],
      }),
    );
    renderFiles('/server/abcd1234/file/logs/huge.log');
    expect(await screen.findByText('This file is too large to edit here')).toBeInTheDocument();
    // A real panel names no limit, so none is made up.
    expect(screen.queryByText(/MiB/)).not.toBeInTheDocument();
    // Download asks the panel for a signed link to the node, then follows it.
    const followed = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const link = 'http://node.example/download/file?token=t';
    const requests = stubFetch((url) =>
      url.pathname.endsWith('/files/download')
        ? json(200, { object: 'signed_url', attributes: { url: link } })
        : json(404, { errors: [{ code: 'x', status: '404', detail: 'x' }] }),
    );
    const buttons = screen.getAllByRole('button', { name: 'Download' });
    fireEvent.click(buttons[buttons.length - 1] as HTMLElement);
    await waitFor(() => expect(followed).toHaveBeenCalled());
    const anchor = followed.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.href).toBe(link);
    expect(requests.mock.calls.some(([url]) => String(url) === `/api/client/servers/${SERVER.uuid}/files/download?file=%2Flogs%2Fhuge.log`)).toBe(
      true,
    );
  });
});
