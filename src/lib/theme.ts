import { useSyncExternalStore } from 'react';
import { THEMES, type ThemeChoice } from '../contract/locales';

/**
 * The colour theme (issue 26 §2): the choice (light, dark, or `system`, which follows the
 * browser's `prefers-color-scheme` live) is kept in localStorage, so it holds before sign-in, and
 * applied as `<html data-theme="light|dark">`, which `index.css` turns into the palette.
 * `public/theme.js` applies the stored choice before the first paint (a classic script in the
 * head, which the CSP's `script-src 'self'` allows where an inline one would not); this module
 * keeps it in step from then on. Its key and media query are that script's: change both together.
 */
export const THEME_STORAGE_KEY = 'aerie.theme';
export type Theme = 'light' | 'dark';

const LIGHT_QUERY = '(prefers-color-scheme: light)';
const listeners = new Set<() => void>();
let choice: ThemeChoice = readStoredChoice();
let resolved: Theme = resolve(choice);

function isChoice(value: unknown): value is ThemeChoice {
  return THEMES.some((theme) => theme === value);
}

function readStoredChoice(): ThemeChoice {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
    return isChoice(stored) ? stored : 'system';
  } catch {
    // Storage refused (a privacy mode): the system's theme.
    return 'system';
  }
}

function systemQuery(): MediaQueryList | undefined {
  return typeof globalThis.matchMedia === 'function' ? globalThis.matchMedia(LIGHT_QUERY) : undefined;
}

function resolve(value: ThemeChoice): Theme {
  if (value !== 'system') return value;
  return systemQuery()?.matches ? 'light' : 'dark';
}

/** Sets `data-theme` on the document and tells the hooks (which re-render only for what changed). */
function apply(): void {
  resolved = resolve(choice);
  if (typeof document !== 'undefined') document.documentElement.dataset.theme = resolved;
  for (const listener of listeners) listener();
}

/** The choice as stored in this browser. */
export function themeChoice(): ThemeChoice {
  return choice;
}

/** The theme on screen now, `system` resolved. */
export function currentTheme(): Theme {
  return resolved;
}

/** Applies a choice at once and keeps it in this browser. */
export function setThemeChoice(next: ThemeChoice): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Not kept: it still applies until the page is left.
  }
  choice = next;
  apply();
}

let started = false;

/**
 * Applies the stored choice and follows, from then on, the system's theme and a choice made in
 * another tab. Called once by the entry module; later calls do nothing.
 */
export function startTheme(): void {
  if (started) return;
  started = true;
  choice = readStoredChoice();
  apply();
  systemQuery()?.addEventListener('change', apply);
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    choice = readStoredChoice();
    apply();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored choice, re-rendering when it changes. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, themeChoice, themeChoice);
}

/** The theme on screen, re-rendering when it changes (the system's theme included). */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme, currentTheme);
}
