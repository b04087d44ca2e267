// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Link } from 'react-router';
import { renderRoutes } from '../test/render-routes';
import { useNavigationBlocker } from './use-navigation-blocker';

afterEach(cleanup);

function Editor() {
  const blocker = useNavigationBlocker(true, (next) => next !== '/edit');
  return (
    <>
      <Link to="/list">Leave</Link>
      <Link to="/edit?new=1">Same page</Link>
      {blocker.state === 'blocked' && (
        <div role="dialog" aria-label="Leave?">
          <button onClick={blocker.reset}>Stay</button>
          <button onClick={blocker.proceed}>Go</button>
        </div>
      )}
    </>
  );
}

const setup = () =>
  renderRoutes(
    [
      { path: '/edit', element: <Editor /> },
      { path: '/list', element: <p>The list</p> },
    ],
    '/edit',
  );

describe('useNavigationBlocker', () => {
  it('holds a navigation to another page until the user decides', async () => {
    const { router } = setup();
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/edit');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/edit');
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Go' }));
    expect(await screen.findByText('The list')).toBeInTheDocument();
  });

  it('lets through what `when` allows (the same page with a new query)', async () => {
    const { router } = setup();
    fireEvent.click(screen.getByRole('link', { name: 'Same page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?new=1'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
