// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '../../test/render-routes';
import { RequireAuth } from '../../app/require-auth';
import { accountQueries } from '../account/api';
import { AccountMenu } from './account-menu';
import { account, stubFetch } from '../../test/auth-test-support';
import { stubResizeObserver } from '../../test/server-test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AccountMenu', () => {
  it('shows who is signed in and signs out', async () => {
    stubResizeObserver();
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const calls = stubFetch(() => new Response(null, { status: 204 }));
    const { client } = renderRoutes(
      [
        { element: <RequireAuth />, children: [{ path: '/', element: <AccountMenu /> }] },
        { path: '/auth/login', element: <p>Sign-in page</p> },
      ],
      '/',
      (c) => c.setQueryData(accountQueries.me().queryKey, account.attributes),
    );
    const ue = userEvent.setup();
    await ue.click(await screen.findByRole('button', { name: 'dana' }));
    expect(await screen.findByText('dana@example.test')).toBeInTheDocument();
    await ue.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /auth/logout']);
    expect(client.getQueryData(accountQueries.me().queryKey)).toBeUndefined();
  });
});
