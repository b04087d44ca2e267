// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup } from '@testing-library/react';
import { renderRoutes } from '../test/render-routes';
import { pageFromParam, usePageParam } from './use-page-param';

afterEach(cleanup);

let latest: ReturnType<typeof usePageParam> | null = null;

function Probe() {
  latest = usePageParam();
  return null;
}

describe('usePageParam', () => {
  it('reads anything but a whole number above 1 as page 1', () => {
    for (const raw of [null, '', '0', '1', '-3', '2.5', 'abc', '1e400']) expect(pageFromParam(raw), String(raw)).toBe(1);
    expect(pageFromParam('7')).toBe(7);
  });

  it('keeps the page in the URL, absent on page 1, beside the other parameters', async () => {
    const { router } = renderRoutes([{ path: '/', element: <Probe /> }], '/?q=lobby&page=3');
    const hook = () => latest ?? [0, () => undefined];
    expect(hook()[0]).toBe(3);
    await act(async () => hook()[1](4));
    expect(router.state.location.search).toBe('?q=lobby&page=4');
    expect(hook()[0]).toBe(4);
    await act(async () => hook()[1](1));
    expect(router.state.location.search).toBe('?q=lobby');
  });
});
