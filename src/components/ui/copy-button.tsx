import { useState } from 'react';
import { useT } from '../messages';
import { cn } from './cn';

/** Copies `value` to the clipboard and says so (visibly and to screen readers). */
export function CopyButton({ value, label, className }: { value: string; label?: string; className?: string }) {
  const t = useT();
  const name = label ?? t('ui.copy');
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={t('ui.copy.named', { label: name, value })}
      className={cn('rounded px-2 py-1 text-xs font-medium text-sky-300 ring-1 ring-inset ring-zinc-700 hover:bg-zinc-800', className)}
    >
      <span aria-live="polite">{copied ? t('ui.copy.done') : name}</span>
    </button>
  );
}
