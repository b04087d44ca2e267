// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, renderAuth, stubFetch } from '../../test/auth-test-support';
import { formatBytes, formatDateTime } from '../format';
import { defineCatalogue } from './catalog';
import { browserLocale, matchLocale, preferredLocale, storeLocale } from './locales';
import { changeLocale, i18n } from './runtime';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  await changeLocale('en');
});

describe('choosing the language', () => {
  it('matches browser tags to the supported locales, else English', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('pt')).toBe('pt-BR');
    expect(matchLocale('pt_BR')).toBe('pt-BR');
    expect(matchLocale('ja')).toBeNull();
    expect(browserLocale(['ja-JP', 'fr-CA', 'de'])).toBe('fr');
    expect(browserLocale(['ja-JP'])).toBe('en');
  });

  it('takes the account’s language, else this browser’s choice, else the browser’s own', () => {
    vi.stubGlobal('navigator', { languages: ['pl-PL'] });
    expect(preferredLocale('ru')).toBe('ru');
    expect(preferredLocale('en')).toBe('pl');
    storeLocale('es');
    expect(preferredLocale('en')).toBe('es');
    expect(preferredLocale(undefined)).toBe('es');
  });
});

describe('the sign-in page in another language', () => {
  it('switches at once from the language picker, with no reload, and remembers it', async () => {
    stubFetch(() => apiError(401, 'Unauthenticated.'));
    renderAuth('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await userEvent.setup().selectOptions(screen.getByLabelText('Language'), 'Deutsch');
    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeInTheDocument();
    expect(screen.getByLabelText('Benutzername oder E-Mail')).toBeInTheDocument();
    expect(screen.getByLabelText('Sprache')).toHaveValue('de');
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('aerie.locale')).toBe('de');
  });
});

describe('formatting in the chosen language', () => {
  // Written here as English source strings, compiled at runtime as in development.
  const { t } = defineCatalogue({ 'test.files': '{count, plural, one {# file} other {# files}}' });

  it('uses each language’s plural rules', async () => {
    await act(() => changeLocale('ru'));
    i18n.load('ru', { 'test.files': '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}' });
    expect([1, 3, 5, 21].map((count) => t('test.files', { count }))).toEqual(['1 файл', '3 файла', '5 файлов', '21 файл']);
    await act(() => changeLocale('en'));
    expect(t('test.files', { count: 1 })).toBe('1 file');
    expect(t('test.files', { count: 1000 })).toBe('1,000 files');
  });

  it('formats sizes and dates with the locale’s separators and names', () => {
    expect(formatBytes(1536, 'de')).toBe('1,5 KiB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KiB');
    const date = new Date(Date.UTC(2026, 10, 29, 12, 0));
    expect(formatDateTime(date, 'de')).toMatch(/29\.11\.2026|29\. Nov\. 2026/);
    expect(formatDateTime(date, 'en')).toMatch(/Nov/);
  });
});
