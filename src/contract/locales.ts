/**
 * The languages the SPA ships (issue 26 §1), English first as the source: the one list the
 * account's language is checked against and the i18n runtime loads catalogues for.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'pl', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];

/** The colour themes an account may choose; `system` follows the browser's `prefers-color-scheme`. */
export const THEMES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEMES)[number];
