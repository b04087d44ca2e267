// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminEgg, AdminEggVariable } from '../../contract/eggs';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminEggPage } from './admin-egg-page';
import { AdminEggsPage } from './admin-eggs-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const T = '2026-01-01T00:00:00+00:00';
const egg: AdminEgg = {
  id: 7,
  uuid: '00000000-0000-4000-8000-000000000007',
  name: 'Mumble Server',
  nest: 1,
  author: 'support@pterodactyl.io',
  description: 'Voice chat.',
  docker_image: 'ghcr.io/parkervcp/yolks:voice_mumble',
  docker_images: { Mumble: 'ghcr.io/parkervcp/yolks:voice_mumble' },
  config: { files: {}, startup: { done: 'Server listening on' }, stop: '^C', logs: {}, file_denylist: [], extends: null },
  startup: 'mumble-server -fg -ini murmur.ini',
  script: { privileged: true, install: '#!/bin/ash\necho hi', entry: 'ash', container: 'ghcr.io/pterodactyl/installers:alpine', extends: null },
  created_at: T,
  updated_at: T,
};
const variable: AdminEggVariable = {
  id: 3,
  egg_id: 7,
  name: 'Maximum Users',
  description: 'Maximum concurrent users.',
  env_variable: 'MAX_USERS',
  default_value: '100',
  user_viewable: true,
  user_editable: false,
  rules: 'required|numeric|digits_between:1,5',
  created_at: T,
  updated_at: T,
};
const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [{ code: 'ValidationException', status: String(status), detail, ...(field ? { meta: { source_field: field, rule: 'x' } } : {}) }],
  });

function stubPanel() {
  const calls: FetchCall[] = [];
  let current = { ...variable };
  stubFetch((url, call) => {
    calls.push(call);
    const path = url.pathname.replace('/api/application', '');
    if (call.method === 'GET' && path === '/nests/1/eggs/7') {
      return json(200, {
        object: 'egg',
        attributes: { ...egg, relationships: { variables: { object: 'list', data: [{ object: 'egg_variable', attributes: current }] } } },
      });
    }
    if (call.method === 'PATCH' && path === '/nests/1/eggs/7/variables/3') {
      const body = call.body as Partial<AdminEggVariable>;
      if (body.rules === 'required|bogus:') return refusal(422, 'The rules must be rule names separated by |.', 'rules');
      current = { ...current, ...body };
      return json(200, { object: 'egg_variable', attributes: current });
    }
    if (call.method === 'GET' && path === '/nests') {
      return json(200, {
        object: 'list',
        data: [
          {
            object: 'nest',
            attributes: {
              id: 1,
              uuid: 'n',
              author: 'a@b.c',
              name: 'Aerie',
              description: null,
              created_at: T,
              updated_at: T,
              relationships: { eggs: { object: 'list', data: [{ object: 'egg', attributes: egg }] } },
            },
          },
        ],
        meta: { pagination: { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
      });
    }
    if (call.method === 'POST' && path === '/nests/1/eggs/import') {
      return refusal(
        422,
        'Only PTDL_v2 (Pterodactyl) and PLCN_v1 (Pelican) egg files can be imported; export a PTDL_v1 file again from a newer panel.',
        'meta.version',
      );
    }
    return refusal(405, 'Method not allowed.');
  });
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/admin/eggs', element: <AdminEggsPage /> },
      { path: '/admin/eggs/:nestId/:eggId', element: <AdminEggPage /> },
    ],
    path,
  );

describe('AdminEggPage', () => {
  it('shows the egg: startup, images, variables with their rules, and its install script', async () => {
    stubPanel();
    render('/admin/eggs/1/7');
    expect(await screen.findByRole('heading', { name: 'Mumble Server' })).toBeInTheDocument();
    expect(screen.getByText('mumble-server -fg -ini murmur.ini')).toBeInTheDocument();
    expect(screen.getByText('ghcr.io/parkervcp/yolks:voice_mumble')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Variables' });
    expect(within(list).getByText('required|numeric|digits_between:1,5')).toBeInTheDocument();
    expect(within(list).getByText('Read-only for users')).toBeInTheDocument();
    expect(screen.getByLabelText('Script')).toHaveValue('#!/bin/ash\necho hi');
  });

  it('edits a variable: a bad name stays in the form, the server’s message lands under its field', async () => {
    const panel = stubPanel();
    render('/admin/eggs/1/7');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit MAX_USERS' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Environment variable'), { target: { value: 'LD_PRELOAD' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save variable' }));
    expect(await within(dialog).findByText('The environment variable is one the panel sets itself.')).toBeInTheDocument();
    expect(panel.writes()).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Environment variable'), { target: { value: 'MAX_USERS' } });
    fireEvent.change(within(dialog).getByLabelText('Rules'), { target: { value: 'required|bogus:' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save variable' }));
    expect(await within(dialog).findByText('The rules must be rule names separated by |.')).toBeInTheDocument();

    fireEvent.change(within(dialog).getByLabelText('Default value'), { target: { value: '50' } });
    fireEvent.change(within(dialog).getByLabelText('Rules'), { target: { value: 'required|numeric' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save variable' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(panel.writes().at(-1)?.body).toMatchObject({ env_variable: 'MAX_USERS', default_value: '50', rules: 'required|numeric' });
    expect(await screen.findByText('required|numeric')).toBeInTheDocument();
  });
});

describe('AdminEggsPage', () => {
  it('lists the nests with their eggs, and shows why an imported file was refused', async () => {
    stubPanel();
    const { router } = render('/admin/eggs');
    const list = await screen.findByRole('list', { name: 'Eggs of Aerie' });
    const input = screen.getByLabelText('Egg file');
    fireEvent.change(input, { target: { files: [new File(['{"meta":{"version":"PTDL_v1"}}'], 'old.json', { type: 'application/json' })] } });
    expect(await screen.findByText(/The egg file was refused: Only PTDL_v2/)).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('link', { name: 'Mumble Server' }));
    expect(router.state.location.pathname).toBe('/admin/eggs/1/7');
  });
});
