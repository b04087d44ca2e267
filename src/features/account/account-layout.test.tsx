// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderRoutes } from '../../test/render-routes';
import { AccountLayout } from './account-layout';

afterEach(cleanup);

const routes = [
  {
    path: '/account',
    element: <AccountLayout />,
    children: [
      { index: true, element: <p>profile</p> },
      { path: 'api-keys', element: <p>keys</p> },
    ],
  },
];

describe('AccountLayout', () => {
  it('gives each account section a title of its own', async () => {
    const { router } = renderRoutes(routes, '/account');
    await screen.findByText('profile');
    expect(document.title).toBe('Profile · Account · Aerie');
    await router.navigate('/account/api-keys');
    await screen.findByText('keys');
    expect(document.title).toBe('API keys · Account · Aerie');
  });
});
