// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for the browser's `prefers-color-scheme: light` query, switchable as an OS would. */
function stubSystem(light: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return light;
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn((media: string) =>
      media === '(prefers-color-scheme: light)' ? query : { matches: false, addEventListener() {}, removeEventListener() {} },
    ),
  );
  return {
    set(next: boolean) {
      light = next;
      for (const listener of listeners) listener();
    },
  };
}

/** The module afresh, as a new page load would run it. */
async function load() {
  vi.resetModules();
  const theme = await import('./theme');
  theme.startTheme();
  return theme;
}

const shown = () => document.documentElement.dataset.theme;

beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});
afterEach(() => vi.unstubAllGlobals());

describe('theme', () => {
  it("follows the system's theme when nothing is stored, or when what is stored is no theme", async () => {
    stubSystem(true);
    expect((await load()).themeChoice()).toBe('system');
    expect(shown()).toBe('light');
    localStorage.setItem('aerie.theme', 'sepia');
    stubSystem(false);
    expect((await load()).themeChoice()).toBe('system');
    expect(shown()).toBe('dark');
  });

  it('applies the stored choice over the system', async () => {
    stubSystem(false);
    localStorage.setItem('aerie.theme', 'light');
    await load();
    expect(shown()).toBe('light');
  });

  it('applies a choice at once and stores it for the next visit', async () => {
    stubSystem(false);
    const theme = await load();
    theme.setThemeChoice('light');
    expect(shown()).toBe('light');
    expect(localStorage.getItem('aerie.theme')).toBe('light');
    theme.setThemeChoice('dark');
    expect(shown()).toBe('dark');
    expect((await load()).themeChoice()).toBe('dark');
    expect(shown()).toBe('dark');
  });

  it("switches live when the system's theme changes, only while the choice is system", async () => {
    const system = stubSystem(false);
    const theme = await load();
    expect(shown()).toBe('dark');
    system.set(true);
    expect(shown()).toBe('light');
    expect(theme.currentTheme()).toBe('light');
    theme.setThemeChoice('dark');
    system.set(false);
    system.set(true);
    expect(shown()).toBe('dark');
  });

  it('takes a choice made in another tab', async () => {
    stubSystem(false);
    await load();
    localStorage.setItem('aerie.theme', 'light');
    window.dispatchEvent(new StorageEvent('storage', { key: 'aerie.theme', newValue: 'light' }));
    expect(shown()).toBe('light');
  });
});
