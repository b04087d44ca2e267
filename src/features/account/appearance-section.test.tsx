// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { RequireAuth } from '../../app/require-auth';
import { toast } from '../../components/ui/toast';
import { changeLocale } from '../../lib/i18n/runtime';
import { setThemeChoice } from '../../lib/theme';
import { account, apiError, json, stubFetch } from '../../test/auth-test-support';
import { renderRoutes } from '../../test/render-routes';
import { AppearanceSection } from './appearance-section';

beforeEach(() => {
  localStorage.clear();
  setThemeChoice('dark');
});
afterEach(async () => {
  await changeLocale('en');
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The section over a stubbed panel whose account has `theme` (or lacks it, as a real Pterodactyl). */
function renderAppearance(theme: string | undefined, save: () => Response = () => new Response(null, { status: 204 })) {
  document.cookie = 'XSRF-TOKEN=test-token; path=/';
  const attributes = theme === undefined ? account.attributes : { ...account.attributes, theme };
  const calls = stubFetch((call) => (call.method === 'GET' ? json(200, { object: 'user', attributes }) : save()));
  renderRoutes([{ element: <RequireAuth />, children: [{ path: '/account/appearance', element: <AppearanceSection /> }] }], '/account/appearance');
  return calls;
}

const shown = () => document.documentElement.dataset.theme;

describe('appearance', () => {
  it("takes the account's theme over this browser's on sign-in and keeps it here", async () => {
    renderAppearance('light');
    expect(await screen.findByRole('radio', { name: 'Light' })).toBeChecked();
    expect(shown()).toBe('light');
    expect(localStorage.getItem('aerie.theme')).toBe('light');
  });

  it('applies a choice at once and saves it for the account', async () => {
    const calls = renderAppearance('dark');
    fireEvent.click(await screen.findByRole('radio', { name: 'Light' }));
    expect(shown()).toBe('light');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: '/api/client/account/preferences', body: { theme: 'light' } });
    expect(localStorage.getItem('aerie.theme')).toBe('light');
  });

  it('puts the previous theme back and says so when the panel refuses', async () => {
    const said = vi.spyOn(toast, 'error');
    renderAppearance('dark', () => apiError(500, 'Something broke.'));
    fireEvent.click(await screen.findByRole('radio', { name: 'Light' }));
    expect(shown()).toBe('light');
    await waitFor(() => expect(shown()).toBe('dark'));
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(said).toHaveBeenCalledWith(expect.stringMatching(/^Your choice could not be saved/));
  });

  it('keeps the choice in this browser only where the panel stores no theme', async () => {
    const calls = renderAppearance(undefined);
    expect(await screen.findByText('(kept in this browser)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'System' }));
    expect(localStorage.getItem('aerie.theme')).toBe('system');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('switches the language at once, with no reload, and saves it for the account', async () => {
    const calls = renderAppearance('dark');
    fireEvent.change(await screen.findByLabelText('Language'), { target: { value: 'de' } });
    expect(await screen.findByRole('heading', { name: 'Darstellung' })).toBeInTheDocument();
    expect(screen.getByLabelText('Sprache')).toHaveValue('de');
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ body: { language: 'de' } }));
    expect(localStorage.getItem('aerie.locale')).toBe('de');
  });

  it('goes back to the language before when the panel refuses to save it', async () => {
    renderAppearance('dark', () => apiError(500, 'Something broke.'));
    fireEvent.change(await screen.findByLabelText('Language'), { target: { value: 'fr' } });
    await waitFor(() => expect(screen.getByLabelText('Language')).toHaveValue('en'));
    expect(localStorage.getItem('aerie.locale')).toBe('en');
  });
});
