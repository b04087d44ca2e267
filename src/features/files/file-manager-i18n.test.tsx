// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { changeLocale } from '../../lib/i18n/runtime';
import { json, stubFetch } from '../../test/server-test-fixtures';
import { fakeLayout, fileEntry, folderEntry, listDocument, renderFiles, SERVER } from '../../test/files-test-support';
import { nameProblem } from './paths';

beforeEach(() => fakeLayout());
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLocale('en');
});

const ENTRIES = [
  folderEntry('plugins'),
  fileEntry('server.properties', { size: 1536 }),
  fileEntry('eula.txt'),
  folderEntry('world'),
  fileEntry('a.yml'),
];

function stubRoot() {
  stubFetch((url) => (url.pathname.endsWith('/files/list') ? json(200, listDocument(ENTRIES)) : json(404, { errors: [] })));
}

describe('the file manager in another language', () => {
  it('shows its controls, counts and sizes in German, with no English left', async () => {
    await act(() => changeLocale('de'));
    stubRoot();
    renderFiles(`/server/${SERVER.identifier}/files`);
    expect(await screen.findByText('5 Einträge')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Dateien' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Neuer Ordner' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hochladen' })).toBeInTheDocument();
    expect(screen.getByText('1,5 KiB')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Ordnerpfad' })).toBeInTheDocument();
    expect(screen.queryByText(/New folder|Upload|items/)).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('checkbox', { name: 'plugins auswählen' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'world auswählen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    expect(await screen.findByRole('dialog', { name: '2 Einträge löschen?' })).toBeInTheDocument();
  });

  it('uses the language’s plural forms (Russian: few and many)', async () => {
    await act(() => changeLocale('ru'));
    stubRoot();
    renderFiles(`/server/${SERVER.identifier}/files`);
    expect(await screen.findByText('5 элементов')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Фильтр по имени' }), { target: { value: 'l' } });
    // every name but server.properties holds an "l": 4 of the 5 entries match.
    expect(await screen.findByText('4 из 5 элементов')).toBeInTheDocument();
  });

  it('says why a name is refused in the language shown, outside any component', async () => {
    await act(() => changeLocale('fr'));
    expect(nameProblem('  ')).toBe('Saisissez un nom.');
    await act(() => changeLocale('en'));
    expect(nameProblem('  ')).toBe('Enter a name.');
  });
});
