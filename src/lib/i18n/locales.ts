/*
 * The SPA's languages and how one is chosen: the account's language, else the one chosen on this
 * browser before sign-in, else the browser's own, else English.
 */

import { LOCALES, type Locale } from '../../contract/locales';

// The list itself is the contract's: the server checks an account's language against it.
export { LOCALES, type Locale };

/** Each language's own name, for the selector. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
  ru: 'Русский',
};

const STORAGE_KEY = 'aerie.locale';

/** A supported locale for a language tag (`de-AT` → `de`, `pt` or `pt_PT` → `pt-BR`), or null. */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const normal = tag.replace('_', '-').toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === normal);
  if (exact) return exact;
  const language = normal.split('-')[0];
  return LOCALES.find((l) => l.split('-')[0] === language) ?? null;
}

/** The browser's preferred supported language, or English. */
export function browserLocale(languages: readonly string[] = navigator.languages): Locale {
  for (const tag of languages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return 'en';
}

export function storedLocale(): Locale | null {
  try {
    return matchLocale(localStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

export function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode without storage: the choice lasts for this page.
  }
}

/**
 * The language to show. Every account has a language and the reference panel's default is `en`,
 * so `en` on the account cannot tell a choice from the default: then this browser's choice or
 * its own language decide.
 */
export function preferredLocale(account?: string | null): Locale {
  const fromAccount = matchLocale(account);
  if (fromAccount && fromAccount !== 'en') return fromAccount;
  return storedLocale() ?? browserLocale();
}
