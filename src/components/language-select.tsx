import { useId } from 'react';
import { changeLocale } from '../lib/i18n/runtime';
import { LOCALE_NAMES, LOCALES, matchLocale, storeLocale, type Locale } from '../lib/i18n/locales';
import { cn } from './ui/cn';
import { useLocale } from '../lib/i18n/catalog';
import { useT } from './messages';

/**
 * The language picker (the signed-out pages, the account's appearance): applies at once and is
 * remembered on this browser; `onPick` may also save it for the account.
 */
export function LanguageSelect({ className, onPick }: { className?: string; onPick?: (locale: Locale) => void }) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  return (
    <div className={cn('flex items-center justify-center gap-2 text-sm text-zinc-400', className)}>
      <label htmlFor={id}>{t('ui.language')}</label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          const next = matchLocale(event.target.value);
          if (!next) return;
          storeLocale(next);
          void changeLocale(next);
          onPick?.(next);
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
