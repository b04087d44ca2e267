import { useId, type ReactNode } from 'react';
import { cn } from './cn';

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: ReactNode;
  disabled?: boolean;
  className?: string;
}

/** An on/off control (`role="switch"`), labelled by visible text; Space and Enter toggle it. */
export function Switch({ checked, onCheckedChange, label, disabled, className }: SwitchProps) {
  const labelId = useId();
  return (
    <div className={cn('inline-flex items-center gap-2.5', className)}>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full ring-1 ring-inset transition-colors disabled:cursor-not-allowed disabled:opacity-50',
          checked ? 'bg-sky-600 ring-sky-500' : 'bg-zinc-800 ring-zinc-700',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-4.5 rounded-full bg-always-white shadow transition-transform',
            checked ? 'translate-x-[1.375rem]' : 'translate-x-[0.1875rem]',
          )}
        />
      </button>
      {/* Clicking the text toggles too, as with a native checkbox label. */}
      <span id={labelId} className="cursor-pointer select-none text-sm text-zinc-200" onClick={() => !disabled && onCheckedChange(!checked)}>
        {label}
      </span>
    </div>
  );
}
