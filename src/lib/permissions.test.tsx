// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { changeLocale } from './i18n/runtime';
import { Can, PermissionHint, ServerPermissionsProvider, usePermissionDescriber } from './permissions';

afterEach(cleanup);

const descriptions = { 'file.create': 'Create new files and folders.', 'file.delete': 'Delete files.', 'settings.*': 'Change the settings.' };

function renderAs(permissions: string[], ui: React.ReactNode, withDescriptions = true) {
  return render(
    <ServerPermissionsProvider permissions={permissions} descriptions={withDescriptions ? descriptions : undefined}>
      {ui}
    </ServerPermissionsProvider>,
  );
}

describe('PermissionHint', () => {
  it('names the missing permission with its description from the catalogue', () => {
    renderAs(['file.read'], <PermissionHint permission="file.create" id="hint" />);
    const hint = document.getElementById('hint');
    expect(hint).toHaveTextContent('Needs the file.create permission · Create new files and folders.');
    expect(screen.getByText('file.create').tagName).toBe('CODE');
  });

  it('names only the permission while the catalogue has not loaded', () => {
    renderAs(['file.read'], <PermissionHint permission="file.create" id="hint" />, false);
    expect(document.getElementById('hint')).toHaveTextContent(/^Needs the file\.create permission$/);
  });

  it('names each missing permission once, in one hint', () => {
    renderAs(['file.read', 'file.update'], <PermissionHint permission={['file.create', 'file.update', 'file.delete']} id="hint" />);
    const hint = document.getElementById('hint');
    expect(hint).toHaveTextContent('Needs file.create and file.delete permissions');
    expect(hint).toHaveAttribute('title', 'file.create: Create new files and folders.\nfile.delete: Delete files.');
    expect(hint).not.toHaveTextContent('file.update');
  });

  it('asks for any permission of the group for a group check', () => {
    renderAs([], <PermissionHint permission="settings.*" id="hint" />);
    expect(document.getElementById('hint')).toHaveTextContent('Needs a settings.* permission · Change the settings.');
  });

  it('shows nothing to owners and admins, or to a subuser holding the permission', () => {
    const { container } = renderAs(['*'], <PermissionHint permission={['file.create', 'settings.*']} />);
    expect(container).toBeEmptyDOMElement();
    cleanup();
    const again = renderAs(['file.create'], <PermissionHint permission="file.create" />);
    expect(again.container).toBeEmptyDOMElement();
  });
});

describe('Can', () => {
  it('shows a hint in place of what it hides when asked to', () => {
    renderAs(
      ['file.read'],
      <Can permission="file.delete" hint>
        <button type="button">Delete</button>
      </Can>,
    );
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Needs the file.delete permission · Delete files.');
  });
});

describe('PermissionHint in another language', () => {
  afterEach(() => changeLocale('en'));

  it('names the missing permissions in German, listed the German way', async () => {
    await act(() => changeLocale('de'));
    renderAs(['file.read'], <PermissionHint permission={['file.create', 'file.update', 'file.delete']} id="hint" />);
    expect(document.getElementById('hint')).toHaveTextContent('Erfordert die Berechtigungen file.create, file.update und file.delete');
    expect(document.getElementById('hint')).not.toHaveTextContent('Needs');
  });

  it("describes a missing permission in German, not with the panel's English", async () => {
    await act(() => changeLocale('de'));
    renderAs(['file.read'], <PermissionHint permission="file.create" id="hint" />);
    const hint = document.getElementById('hint');
    expect(hint).toHaveTextContent(
      'Erfordert die Berechtigung file.create · Neue Dateien und Ordner erstellen sowie Dateien hochladen, kopieren oder entpacken.',
    );
    expect(hint).not.toHaveTextContent('Create new files');
  });

  it('describes a group and each of several missing permissions in German', async () => {
    await act(() => changeLocale('de'));
    renderAs([], <PermissionHint permission="settings.*" id="group" />);
    expect(document.getElementById('group')).toHaveTextContent('· Die allgemeinen Einstellungen dieses Servers ändern.');
    cleanup();
    renderAs(['file.read'], <PermissionHint permission={['file.create', 'file.delete']} id="hint" />);
    expect(document.getElementById('hint')).toHaveAttribute(
      'title',
      'file.create: Neue Dateien und Ordner erstellen sowie Dateien hochladen, kopieren oder entpacken.\nfile.delete: Dateien und Ordner löschen.',
    );
  });

  it("falls back to the panel's text for a permission it has no words for, and to nothing for one the panel lacks", async () => {
    await act(() => changeLocale('de'));
    const panel = { 'control.kill': 'Kill the server.', 'file.read': 'List the files.' };
    const { result } = renderHook(() => usePermissionDescriber(panel));
    expect(result.current('control.kill')).toBe('Kill the server.');
    expect(result.current('file.read')).toBe('Dateien und Ordner auflisten.');
    expect(result.current('control.unknown')).toBeUndefined();
    expect(result.current('constructor')).toBeUndefined();
  });
});

describe('usePermissionDescriber in English', () => {
  it("gives the panel's own text, and nothing before the panel has said it", () => {
    const { result, rerender } = renderHook(({ panel }: { panel?: Record<string, string> }) => usePermissionDescriber(panel), {
      initialProps: {},
    });
    expect(result.current('file.read')).toBeUndefined();
    rerender({ panel: { 'file.read': 'List the files.' } });
    expect(result.current('file.read')).toBe('List the files.');
    expect(result.current('__proto__')).toBeUndefined();
  });
});
