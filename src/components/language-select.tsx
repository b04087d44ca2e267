import { useId } from 'react';
import { changeLocale } from '../lib/i18n/runtime';
import { LOCALE_NAMES, LOCALES, matchLocale, storeLocale } from '../lib/i18n/locales';
import { useLocale } from '../lib/i18n/catalog';
import { useT } from './messages';

/** The language picker of the signed-out pages: applies at once and is remembered on this browser. */
export function LanguageSelect() {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  return (
    <div className="flex items-center justify-center gap-2 text-sm text-zinc-400">
      <label htmlFor={id}>{t('ui.language')}</label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          const next = matchLocale(event.target.value);
          if (!next) return;
          storeLocale(next);
          void changeLocale(next);
        }}
        className="rounded-md bg-zinc-900 px-2 py-1 text-zinc-200 ring-1 ring-zinc-700 ring-inset"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
