import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import { useT } from '../messages';
import { cn } from './cn';

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'value' | 'size'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Enter: apply now instead of waiting for the debounce. */
  onCommit?: (value: string) => void;
  /** Show the label to sighted users too (default: screen readers only, the icon says "search"). */
  showLabel?: boolean;
  /** `sm` sits in a toolbar of small buttons. */
  size?: 'sm' | 'md';
  inputClassName?: string;
}

/**
 * The one search box (server list, activity filter, file filter): labelled, with a clear button;
 * Escape clears it and Enter applies it at once. Inside a `role="search"` landmark.
 */
export const SearchInput = forwardRef<HTMLInputElement, SearchInputProps>(function SearchInput(
  { label, value, onValueChange, onCommit, showLabel = false, size = 'md', className, inputClassName, id, onKeyDown, ...rest },
  ref,
) {
  const t = useT();
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div role="search" className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className={showLabel ? 'text-sm font-medium text-zinc-200' : 'sr-only'}>
        {label}
      </label>
      <div className="relative">
        <SearchIcon className={cn('pointer-events-none absolute top-1/2 -translate-y-1/2', size === 'sm' ? 'left-2.5' : 'left-3')} />
        <input
          ref={ref}
          id={inputId}
          type="search"
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && value) {
              e.preventDefault();
              onValueChange('');
              onCommit?.('');
            } else if (e.key === 'Enter' && onCommit) {
              e.preventDefault();
              onCommit(value);
            }
            onKeyDown?.(e);
          }}
          autoComplete="off"
          spellCheck={false}
          className={cn(
            'w-full rounded-md bg-zinc-900 pr-9 text-zinc-100 ring-1 ring-inset ring-zinc-700 placeholder:font-sans placeholder:text-zinc-400 focus:outline-none focus:ring-2 focus:ring-sky-500 [&::-webkit-search-cancel-button]:hidden',
            size === 'sm' ? 'min-h-9 py-1.5 pl-8 text-sm' : 'min-h-10 py-2 pl-9',
            inputClassName,
          )}
          {...rest}
        />
        {value && (
          <button
            type="button"
            aria-label={t('ui.search.clear')}
            onClick={() => {
              onValueChange('');
              onCommit?.('');
            }}
            className="absolute right-1.5 top-1/2 grid size-7 -translate-y-1/2 place-items-center rounded text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        )}
      </div>
    </div>
  );
});

/** The magnifier of every search box (and of the header's palette button). */
export function SearchIcon({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={cn('size-4 shrink-0 text-zinc-500', className)}>
      <path
        fillRule="evenodd"
        d="M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM2 9a7 7 0 1 1 12.45 4.39l3.08 3.08a.75.75 0 1 1-1.06 1.06l-3.08-3.08A7 7 0 0 1 2 9Z"
        clipRule="evenodd"
      />
    </svg>
  );
}
