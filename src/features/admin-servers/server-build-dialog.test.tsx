// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freeAllocation, stubAdminPanel } from '../../test/admin-server-fixtures';
import { renderRoutes } from '../../test/render-routes';
import { AdminServerPage } from './admin-server-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ServerBuildDialog', () => {
  it('adds ports from the node’s free allocations, the same picker the create form uses', async () => {
    const panel = stubAdminPanel({ free: { 1: [freeAllocation(21, 25570), freeAllocation(22, 25571)] } });
    renderRoutes([{ path: '/admin/servers/:serverId', element: <AdminServerPage /> }], '/admin/servers/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit limits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit limits and ports' });
    const add = within(dialog).getByLabelText('Add ports');
    await within(add).findByRole('option', { name: '127.0.0.1:25571' });
    // The server's only port is its primary one: nothing to remove.
    expect(within(within(dialog).getByLabelText('Remove ports')).queryAllByRole('option')).toHaveLength(0);
    await userEvent.setup().selectOptions(add, '127.0.0.1:25571');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(panel.writes()).toHaveLength(1));
    expect(panel.writes()[0]?.body).toMatchObject({ allocation: 7, add_allocations: [22], remove_allocations: [] });
  });
});
