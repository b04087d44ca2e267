import { defineCatalogue } from '../lib/i18n/catalog';
import english from './locales/en.json';

export const { useT, T, t } = defineCatalogue(english);

/** A key of the app's catalogue (the route tables name their pages with one). */
export type AppMessage = keyof typeof english;
