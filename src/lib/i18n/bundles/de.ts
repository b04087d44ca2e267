import { mergeCatalogues } from '../merge';

// Every catalogue of this language in one chunk, loaded only when it is chosen.
export default mergeCatalogues(import.meta.glob('/src/**/locales/de.json', { eager: true, import: 'default' }));
