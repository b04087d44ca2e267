import { defineCatalogue } from '../../lib/i18n/catalog';
import english from './locales/en.json';

export const { useT, T, t } = defineCatalogue(english);

export type PaletteMessage = keyof typeof english;
