// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { apiError, json, makeServer, serverDocument, stubFetch, testAccount } from '../test/server-test-fixtures';
import { AppRoutes } from './routes';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'XSRF-TOKEN=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

// Signing in leaves this cookie behind; a browser that never signed in has none.
const signedInBrowser = () => (document.cookie = 'XSRF-TOKEN=t; path=/');

function renderApp(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const list = { object: 'list', data: [], meta: { pagination: { total: 0, count: 0, per_page: 50, current_page: 1, total_pages: 1, links: {} } } };

describe('AppRoutes', () => {
  it('shows the sign-in page to a signed-out visitor', async () => {
    signedInBrowser();
    stubFetch(() => apiError(401, 'Unauthenticated.'));
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('renders the sign-in page without a router or React warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    stubFetch(() => apiError(401, 'Unauthenticated.'));
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('asks the panel nothing on a fresh visit, so no failed request shows in the console', async () => {
    const mock = stubFetch(() => apiError(401, 'Unauthenticated.'));
    renderApp('/server/abcd1234/activity');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    // Only whether to offer "Forgot password?" and the panel's name, which the panel answers signed in or not.
    const paths = () => mock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    await waitFor(() => expect(paths()).toContain('/auth/password/status'));
    await waitFor(() => expect(paths()).toContain('/api/panel'));
    expect(paths().sort()).toEqual(['/api/panel', '/auth/password/status']);
  });

  it('sends a signed-out visitor of a server page to sign-in, keeping where they were going', async () => {
    stubFetch(() => apiError(401, 'Unauthenticated.'));
    renderApp('/server/abcd1234/activity');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('opens a server page inside the shell and the server layout', async () => {
    signedInBrowser();
    stubFetch((url) => {
      if (url.pathname === '/api/client/account') return json(200, { object: 'user', attributes: testAccount });
      if (url.pathname.endsWith('/activity')) return json(200, list);
      return json(200, serverDocument(makeServer(), { is_server_owner: true, user_permissions: ['*'] }));
    });
    renderApp('/server/abcd1234/activity');
    expect(await screen.findByRole('heading', { level: 1, name: 'Survival' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('No activity yet', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toBeInTheDocument();
  });

  it('says when a page does not exist', async () => {
    signedInBrowser();
    stubFetch((url) => (url.pathname === '/api/client/account' ? json(200, { object: 'user', attributes: testAccount }) : json(200, list)));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Not found' }, { timeout: 5000 })).toBeInTheDocument();
  });
});
