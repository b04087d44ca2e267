// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Link } from 'react-router';
import { renderRoutes } from '../test/render-routes';
import { BoundedOutlet } from './bounded-outlet';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('The page could not be drawn.');
}

function Frame() {
  return (
    <>
      <Link to="/fine">Elsewhere</Link>
      <BoundedOutlet />
    </>
  );
}

describe('BoundedOutlet', () => {
  it('explains a page that fails inside the frame, and the next page clears it', async () => {
    // React reports the caught error on the console; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoutes(
      [
        {
          element: <Frame />,
          children: [
            { path: '/broken', element: <Broken /> },
            { path: '/fine', element: <p>All good</p> },
          ],
        },
      ],
      '/broken',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('The page could not be drawn.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('All good')).toBeInTheDocument();
    expect(screen.queryByText('The page could not be drawn.')).not.toBeInTheDocument();
  });
});
