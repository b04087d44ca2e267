import { useId } from 'react';
import type { ThemeChoice } from '../../contract/locales';
import { Card } from '../../components/ui/card';
import { useAccount } from '../../app/require-auth';
import { setThemeChoice, useThemeChoice } from '../../lib/theme';
import { LanguageSelect } from '../../components/language-select';
import { useSavePreferences } from './api';
import { useT } from './messages';

const OPTIONS = [
  { value: 'light', label: 'account.appearance.light', hint: 'account.appearance.lightHint' },
  { value: 'dark', label: 'account.appearance.dark', hint: 'account.appearance.darkHint' },
  { value: 'system', label: 'account.appearance.system', hint: 'account.appearance.systemHint' },
] as const satisfies readonly { value: ThemeChoice; label: string; hint: string }[];

/** The colour theme: applied at once, kept in this browser and, where the panel stores it, for the account. */
export function AppearanceSection() {
  const t = useT();
  const account = useAccount();
  const choice = useThemeChoice();
  const save = useSavePreferences();
  // A panel without the account's preferences (a real Pterodactyl) keeps them in this browser only.
  const stored = account.theme !== undefined;
  const pick = (value: ThemeChoice) => {
    setThemeChoice(value);
    if (stored) save.mutate({ theme: value });
  };
  return (
    <Card title={t('account.section.appearance')}>
      <LanguageSelect className="mb-5 justify-start" onPick={(language) => stored && save.mutate({ language })} />
      <fieldset>
        <legend className="mb-3 text-sm text-zinc-400">
          {t('account.appearance.theme')} <span>{t(stored ? 'account.appearance.stored' : 'account.appearance.local')}</span>
        </legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {OPTIONS.map((option) => (
            <ThemeOption key={option.value} {...option} checked={choice === option.value} onPick={() => pick(option.value)} />
          ))}
        </div>
      </fieldset>
    </Card>
  );
}

/** One choice: named by its label alone, its hint a description. */
function ThemeOption({ value, label, hint, checked, onPick }: (typeof OPTIONS)[number] & { checked: boolean; onPick: () => void }) {
  const t = useT();
  const id = useId();
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-md bg-zinc-950/60 p-3 ring-1 ring-zinc-800 ring-inset hover:bg-zinc-800/40 has-checked:ring-2 has-checked:ring-sky-500">
      <input
        type="radio"
        name="theme"
        value={value}
        checked={checked}
        onChange={onPick}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 shrink-0 accent-sky-500"
      />
      <span className="min-w-0">
        <span id={`${id}-label`} className="block text-sm font-medium text-zinc-100">
          {t(label)}
        </span>
        <span id={`${id}-hint`} className="block text-xs text-zinc-400">
          {t(hint)}
        </span>
      </span>
    </label>
  );
}
