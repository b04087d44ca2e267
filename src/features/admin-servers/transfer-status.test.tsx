// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { ServerTransfer } from '../../contract/admin-server-transfer';
import { adminNode, stubAdminPanel } from '../../test/admin-server-fixtures';
import { renderRoutes } from '../../test/render-routes';
import { AdminServerPage } from './admin-server-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const T = '2026-01-02T10:00:00+00:00';
const transfer = (extra: Partial<ServerTransfer>): ServerTransfer => ({
  id: 1,
  state: 'done',
  reason: null,
  old_node: 1,
  new_node: 2,
  created_at: T,
  updated_at: T,
  ...extra,
});
const show = (latest: ServerTransfer) => {
  stubAdminPanel({ nodes: [adminNode(1, 'Local node', 1), adminNode(2, 'Frankfurt 2', 1)], transfer: latest });
  renderRoutes([{ path: '/admin/servers/:serverId', element: <AdminServerPage /> }], '/admin/servers/1');
};

describe('TransferStatus', () => {
  it('names the nodes a server moved between', async () => {
    show(transfer({}));
    expect(await screen.findByText(/^Moved from node Local node to node Frankfurt 2 on /)).toBeInTheDocument();
    expect(screen.queryByText(/node #/)).not.toBeInTheDocument();
  });

  it('names a node the list no longer has by its id', async () => {
    show(transfer({ state: 'failed', new_node: 7, reason: 'the node did not answer' }));
    expect(await screen.findByText('The move to node #7 failed (the node did not answer); the server stayed where it was.')).toBeInTheDocument();
  });
});
