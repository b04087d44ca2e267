// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http';
import { QueryList } from './query-list';

afterEach(cleanup);

const show = (query: { isPending: boolean; isError: boolean; error: unknown }, items: readonly string[] | undefined) =>
  render(
    <MemoryRouter>
      <QueryList query={query} items={items} empty={<p>Nothing yet</p>}>
        {(names) => (
          <ul aria-label="Names">
            {names.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        )}
      </QueryList>
    </MemoryRouter>,
  );

describe('QueryList', () => {
  it('shows a spinner while loading, and nothing else', () => {
    show({ isPending: true, isError: false, error: null }, undefined);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();
  });

  it('shows the error when the query failed, even with items from before', () => {
    const error = new ApiError(404, [{ code: 'NotFoundHttpException', status: '404', detail: 'gone' }]);
    show({ isPending: false, isError: true, error }, ['a']);
    expect(screen.getByRole('alert')).toHaveTextContent('Not found');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows the empty state for no items, and the items otherwise', () => {
    const { unmount } = show({ isPending: false, isError: false, error: null }, []);
    expect(screen.getByText('Nothing yet')).toBeInTheDocument();
    unmount();
    show({ isPending: false, isError: false, error: null }, ['a', 'b']);
    expect(screen.getByRole('list', { name: 'Names' }).querySelectorAll('li')).toHaveLength(2);
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();
  });
});
