import { forwardRef, useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cn } from './cn';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** TextField's select: label above, hint or error below, tied to the control with aria-describedby. */
export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, hint, className, id, children, ...rest },
  ref,
) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const described = cn(error ? `${controlId}-error` : null, hint && !error ? `${controlId}-hint` : null) || undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={controlId} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      <select
        ref={ref}
        id={controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={cn(
          'min-h-10 rounded-md bg-zinc-900 px-2 py-2 text-zinc-100 ring-1 ring-inset focus:ring-2 focus:outline-none',
          error ? 'ring-red-500 focus:ring-red-400' : 'ring-zinc-700 focus:ring-sky-500',
        )}
        {...rest}
      >
        {children}
      </select>
      {hint && !error && (
        <p id={`${controlId}-hint`} className="text-xs text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${controlId}-error`} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
});
