// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoutes } from '../../test/render-routes';
import { useChoiceParam, useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { Button } from './button';
import { ListPage, ListSearch } from './list-page';
import { ListRow, RowActions, RowList } from './row-list';
import { EmptyState } from './states';

afterEach(cleanup);

const FRUITS = ['apple', 'apricot', 'banana', 'cherry', 'damson'];
const COLUMNS = { name: 'Name', colour: 'Colour' } as const;
const PER_PAGE = 2;
const done = { isPending: false, isError: false, error: null };

/** A list page as the admin area builds one, over `fruits` two a page, filtered by `?q=` as an API would. */
function FruitsPage({ fruits, linked }: { fruits: readonly string[]; linked: boolean }) {
  const [page, setPage] = usePageParam();
  const [by, setBy] = useChoiceParam('by', ['name', 'colour'] as const, 'name');
  const search = useListSearch();
  const found = fruits.filter((f) => f.includes(search.value));
  const meta = { total: found.length, count: 0, per_page: PER_PAGE, current_page: page, total_pages: Math.ceil(found.length / PER_PAGE), links: {} };
  return (
    <ListPage
      headingId="fruits-heading"
      title="Fruits"
      noun={(count) => (count === 1 ? '1 fruit' : `${count} fruits`)}
      action={<Button>Add fruit</Button>}
      search={<ListSearch search={search} label={`Search by ${by}`} field={{ value: by, choices: COLUMNS, onChange: setBy }} />}
      query={done}
      items={found.slice((page - 1) * PER_PAGE, page * PER_PAGE)}
      empty={search.value ? <EmptyState title={`No fruits match “${search.value}”`} /> : <EmptyState title="No fruits yet" />}
      paging={{ meta, onPage: setPage, label: 'Fruit list pages' }}
    >
      {(shown) => (
        <RowList label="Fruits">
          {shown.map((f) =>
            linked ? (
              <ListRow key={f} to={`/fruits/${f}`} title={f} details={<p>Fresh</p>} />
            ) : (
              <ListRow key={f} label={f} title={f}>
                <RowActions
                  of={f}
                  actions={[
                    { label: 'Eat', onClick: () => undefined },
                    { label: 'Peel', name: `Peel the ${f}`, disabled: true, onClick: () => undefined },
                  ]}
                />
              </ListRow>
            ),
          )}
        </RowList>
      )}
    </ListPage>
  );
}

const show = (path: string, { fruits = FRUITS, linked = true }: { fruits?: readonly string[]; linked?: boolean } = {}) =>
  renderRoutes(
    [
      { path: '/fruits', element: <FruitsPage fruits={fruits} linked={linked} /> },
      { path: '/fruits/:name', element: <p>A fruit’s page</p> },
    ],
    path,
  );

const rows = () => within(screen.getByRole('list', { name: 'Fruits' })).getAllByRole('listitem');
const box = () => screen.getByRole('searchbox', { name: 'Search by name' });

describe('ListPage', () => {
  it('names its section by the heading and shows the live count, the action and the rows', () => {
    show('/fruits');
    const section = screen.getByRole('region', { name: 'Fruits' });
    expect(within(section).getByRole('status')).toHaveTextContent('5 fruits');
    expect(within(section).getByRole('button', { name: 'Add fruit' })).toBeInTheDocument();
    expect(rows().map((r) => r.textContent)).toEqual(['appleFresh', 'apricotFresh']);
  });

  it('shows the empty state, not a list, an empty count or pages, when nothing is there or nothing matches', () => {
    const { unmount } = show('/fruits', { fruits: [] });
    expect(screen.getByText('No fruits yet')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^$/);
    unmount();
    show('/fruits?q=kiwi');
    expect(screen.getByText('No fruits match “kiwi”')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Fruit list pages' })).not.toBeInTheDocument();
  });

  it('keeps the search in the URL, from page 1, and shows it again from the URL', () => {
    const { router, unmount } = show('/fruits?page=2');
    fireEvent.change(box(), { target: { value: ' ap ' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(router.state.location.search).toBe('?q=ap');
    expect(rows().map((r) => r.textContent)).toEqual(['appleFresh', 'apricotFresh']);
    unmount();
    show('/fruits?q=an');
    expect(box()).toHaveValue('an');
    expect(rows().map((r) => r.textContent)).toEqual(['bananaFresh']);
  });

  it('changes the searched column in ?by= and starts again from page 1', () => {
    const { router } = show('/fruits?page=2&q=a');
    fireEvent.change(screen.getByRole('combobox', { name: 'Search in' }), { target: { value: 'colour' } });
    expect(router.state.location.search).toBe('?q=a&by=colour');
    expect(screen.getByRole('searchbox', { name: 'Search by colour' })).toHaveValue('a');
  });

  it('pages through ?page=, a page past the first kept in the URL', () => {
    const { router } = show('/fruits');
    const pages = screen.getByRole('navigation', { name: 'Fruit list pages' });
    expect(pages).toHaveTextContent('Page 1 of 3 · 5 total');
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=2');
    expect(rows().map((r) => r.textContent)).toEqual(['bananaFresh', 'cherryFresh']);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(router.state.location.search).toBe('');
  });

  it('shows the last page for a page past the end (rows deleted, an old link), replacing the address', async () => {
    const { router } = show('/fruits?q=a&page=9');
    await waitFor(() => expect(router.state.location.search).toBe('?q=a&page=2'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(rows().map((r) => r.textContent)).toEqual(['bananaFresh', 'damsonFresh']);
    expect(screen.queryByText(/No fruits/)).not.toBeInTheDocument();
  });

  it('focuses the search on "/" from the page, but not while typing in another field', () => {
    show('/fruits');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(box()).toHaveFocus();
    expect(box()).toHaveAttribute('aria-keyshortcuts', '/');
    const select = screen.getByRole('combobox', { name: 'Search in' });
    select.focus();
    fireEvent.keyDown(select, { key: '/' });
    expect(select).toHaveFocus();
  });

  it('makes a linked row one link named by its title, to the row’s page', () => {
    const { router } = show('/fruits');
    const link = screen.getByRole('link', { name: 'apple' });
    expect(rows()[0]).toContainElement(link);
    expect(within(screen.getByRole('list', { name: 'Fruits' })).getAllByRole('link')).toHaveLength(2);
    fireEvent.click(link);
    expect(router.state.location.pathname).toBe('/fruits/apple');
  });

  it('names a row without a link by its label, with no link in it, and each of its buttons with the row', () => {
    show('/fruits', { linked: false });
    const apple = screen.getByRole('listitem', { name: 'apple' });
    expect(within(apple).queryByRole('link')).not.toBeInTheDocument();
    expect(within(apple).getByRole('button', { name: 'Eat apple' })).toBeEnabled();
    expect(within(apple).getByRole('button', { name: 'Peel the apple' })).toBeDisabled();
  });
});
