// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { renderRoutes } from '../test/render-routes';
import { useSearchParamInput } from './use-search-param';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

let latest: ReturnType<typeof useSearchParamInput> | null = null;

function Probe() {
  latest = useSearchParamInput('q', { reset: ['page'], debounceMs: 300 });
  return <p>{`draft=${latest.draft} value=${latest.value} pending=${String(latest.pending)}`}</p>;
}

function renderAt(path: string) {
  const { router } = renderRoutes([{ path: '/', element: <Probe /> }], path);
  const hook = () => {
    if (!latest) throw new Error('not rendered');
    return latest;
  };
  return { router, hook };
}

describe('useSearchParamInput', () => {
  it('starts from the URL', () => {
    renderAt('/?q=lobby&page=3');
    expect(screen.getByText('draft=lobby value=lobby pending=false')).toBeInTheDocument();
  });

  it('writes the trimmed draft to the URL after the pause, dropping the page, replacing history', async () => {
    vi.useFakeTimers();
    const { router, hook } = renderAt('/?page=3');
    act(() => hook().setDraft(' sur'));
    act(() => hook().setDraft(' surv '));
    expect(hook()).toMatchObject({ draft: ' surv ', value: '', pending: true });
    act(() => vi.advanceTimersByTime(299));
    expect(router.state.location.search).toBe('?page=3');
    await act(async () => vi.advanceTimersByTime(1));
    expect(router.state.location.search).toBe('?q=surv');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(hook().value).toBe('surv');
    // The typed spaces stay in the box: the URL caught up with the draft, so nothing is reset.
    expect(hook().draft).toBe(' surv ');
  });

  it('applies at once on commit, and an empty commit removes the parameter', async () => {
    const { router, hook } = renderAt('/?q=old&page=2');
    await act(async () => hook().commit('new'));
    expect(router.state.location.search).toBe('?q=new');
    await act(async () => hook().commit(''));
    expect(router.state.location.search).toBe('');
    expect(hook().draft).toBe('');
  });

  it('follows the URL when it changes elsewhere (Back, a link)', async () => {
    const { router, hook } = renderAt('/?q=one');
    await act(async () => router.navigate('/?q=two'));
    expect(hook().draft).toBe('two');
    await act(async () => router.navigate(-1));
    expect(hook().draft).toBe('one');
  });

  it('writes nothing once the address has moved on before the pause ends (a tab clicked while typing)', async () => {
    vi.useFakeTimers();
    const { router, hook } = renderAt('/?page=3');
    act(() => hook().setDraft('surv'));
    // The browser's address changes at the click; the page stays shown while the next one loads.
    window.history.pushState({}, '', '/elsewhere');
    try {
      await act(async () => vi.advanceTimersByTime(300));
      expect(router.state.location.search).toBe('?page=3');
    } finally {
      window.history.pushState({}, '', '/');
    }
  });
});
