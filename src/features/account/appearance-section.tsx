import { useId } from 'react';
import type { ThemeChoice } from '../../contract/locales';
import { Card } from '../../components/ui/card';
import { useAccount } from '../../app/require-auth';
import { setThemeChoice, useThemeChoice } from '../../lib/theme';
import { useSaveTheme } from './api';

const OPTIONS: readonly { value: ThemeChoice; label: string; hint: string }[] = [
  { value: 'light', label: 'Light', hint: 'Dark text on a pale page.' },
  { value: 'dark', label: 'Dark', hint: 'Light text on a dark page.' },
  { value: 'system', label: 'System', hint: 'Follows your device, switching when it does.' },
];

/** The colour theme: applied at once, kept in this browser and, where the panel stores it, for the account. */
export function AppearanceSection() {
  const account = useAccount();
  const choice = useThemeChoice();
  const save = useSaveTheme();
  // A panel without the account's theme (a real Pterodactyl) keeps it in this browser only.
  const stored = account.theme !== undefined;
  const pick = (value: ThemeChoice) => {
    setThemeChoice(value);
    if (stored) save.mutate(value);
  };
  return (
    <Card title="Appearance">
      <fieldset>
        <legend className="mb-3 text-sm text-zinc-400">
          Theme{' '}
          <span className="text-zinc-400">{stored ? '(saved to your account, for every browser you sign in with)' : '(kept in this browser)'}</span>
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
        className="mt-0.5 size-4 accent-sky-500"
      />
      <span className="min-w-0">
        <span id={`${id}-label`} className="block text-sm font-medium text-zinc-100">
          {label}
        </span>
        <span id={`${id}-hint`} className="block text-xs text-zinc-400">
          {hint}
        </span>
      </span>
    </label>
  );
}
