import { setupI18n, type Messages } from '@lingui/core';
import type { Locale } from './locales';

/*
 * One Lingui instance for the SPA. English needs no loading: each feature's English catalogue
 * comes with its code and is the fallback every lookup passes (see catalog.tsx). The other
 * languages are one chunk each (bundles/), fetched the first time they are chosen.
 */
export const i18n = setupI18n({ locale: 'en', messages: { en: {} } });

type Bundle = () => Promise<{ default: Messages }>;
const BUNDLES: Record<Exclude<Locale, 'en'>, Bundle> = {
  de: () => import('./bundles/de'),
  fr: () => import('./bundles/fr'),
  es: () => import('./bundles/es'),
  'pt-BR': () => import('./bundles/pt-BR'),
  pl: () => import('./bundles/pl'),
  ru: () => import('./bundles/ru'),
};

const loaded = new Set<Locale>(['en']);
let latest = 0;

/** Shows the SPA in `locale` at once, once its catalogue is here; a later call wins over an earlier one still loading. */
export async function changeLocale(locale: Locale): Promise<void> {
  const call = ++latest;
  if (!loaded.has(locale) && locale !== 'en') {
    const { default: messages } = await BUNDLES[locale]();
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  if (call !== latest || i18n.locale === locale) return;
  i18n.activate(locale);
  document.documentElement.lang = locale;
}
