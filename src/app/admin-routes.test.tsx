// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { json, stubFetch, testAccount } from '../test/server-test-fixtures';
import { AppRoutes } from './routes';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

const list = { object: 'list', data: [], meta: { pagination: { total: 0, count: 0, per_page: 50, current_page: 1, total_pages: 1, links: {} } } };
const overview = { object: 'admin_overview', attributes: { panel_version: '0.1.0', nodes: [], activity: [] } };

function renderApp(path: string, admin: boolean) {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const mock = stubFetch((url) => {
    if (url.pathname === '/api/client/account') return json(200, { object: 'user', attributes: { ...testAccount, admin } });
    if (url.pathname === '/api/application/overview') return json(200, overview);
    return json(200, list);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { paths: () => mock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname) };
}

describe('the admin area in the app', () => {
  it('shows a user who is not a root admin the not-found page at any /admin URL, asking the admin API nothing', async () => {
    const { paths } = renderApp('/admin/users', false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Not found' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(paths().filter((p) => p.startsWith('/api/application'))).toEqual([]);
  });

  it('has no Admin link in a regular user’s header', async () => {
    renderApp('/', false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Servers' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('gives a root admin the Admin link, and the overview with the area’s tabs behind it', async () => {
    renderApp('/admin', true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
    const tabs = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(within(tabs).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/users');
    expect(await screen.findByText('0.1.0', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('says not found for an unknown page inside the admin area', async () => {
    renderApp('/admin/nope', true);
    expect(await screen.findByRole('heading', { name: 'Not found' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
  });
});
