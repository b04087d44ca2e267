import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preferredLocale } from './lib/i18n/locales';
import { changeLocale } from './lib/i18n/runtime';
import './index.css';
import { startTheme } from './lib/theme';

startTheme();

const root = document.getElementById('root');
if (root) {
  // The chosen language's catalogue first (English needs none), so the first paint is in it.
  await changeLocale(preferredLocale()).catch(() => undefined);
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
