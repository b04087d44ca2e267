import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from './cn';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** A labelled input whose error is announced and tied to it with aria-describedby. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField({ label, error, hint, className, id, ...rest }, ref) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={cn(error ? errorId : null, hint ? hintId : null) || undefined}
        className={cn(
          'min-h-10 rounded-md bg-zinc-900 px-3 py-2 text-zinc-100 ring-1 ring-inset placeholder:text-zinc-400 focus:outline-none focus:ring-2',
          error ? 'ring-red-500 focus:ring-red-400' : 'ring-zinc-700 focus:ring-sky-500',
        )}
        {...rest}
      />
      {hint && !error && (
        <p id={hintId} className="text-xs text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
});

/** A form-level error (no field to attach it to). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md bg-red-950/60 px-3 py-2 text-sm text-red-300 ring-1 ring-inset ring-red-900">
      {message}
    </div>
  );
}
