import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from './cn';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** Label above, hint or error below, both tied to the control with aria-describedby. */
function useField({ id, error, hint }: { id?: string; error?: string; hint?: ReactNode }) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const control = {
    id: controlId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': cn(error ? errorId : null, hint ? hintId : null) || undefined,
  };
  const frame = (label: ReactNode, className: string | undefined, input: ReactNode) => (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={controlId} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      {input}
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
  return { control, frame };
}

const controlClass = (error: string | undefined) =>
  cn(
    'rounded-md bg-zinc-900 px-3 py-2 text-zinc-100 ring-1 ring-inset placeholder:text-zinc-400 focus:outline-none focus:ring-2',
    error ? 'ring-red-500 focus:ring-red-400' : 'ring-zinc-700 focus:ring-sky-500',
  );

/** A labelled input whose error is announced and tied to it with aria-describedby. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, className, id, autoFocus, ...rest },
  ref,
) {
  const { control, frame } = useField({ id, error, hint });
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => input.current as HTMLInputElement);
  // Focused when it appears, as React does with autoFocus; Preact leaves autofocus to the browser,
  // which honours it only while the document loads, not on a page the SPA renders later.
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  return frame(label, className, <input ref={input} {...control} className={cn('min-h-10', controlClass(error))} {...rest} />);
});

/** The same for several lines (monospace: keys, addresses, patterns). */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, hint, className, id, ...rest },
  ref,
) {
  const { control, frame } = useField({ id, error, hint });
  return frame(
    label,
    className,
    <textarea ref={ref} spellCheck={false} {...control} className={cn('font-mono text-sm break-all', controlClass(error))} {...rest} />,
  );
});

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** The same for a choice among options (the options are its children). */
export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, hint, className, id, children, ...rest },
  ref,
) {
  const { control, frame } = useField({ id, error, hint });
  return frame(
    label,
    className,
    <select ref={ref} {...control} className={cn('min-h-10', controlClass(error))} {...rest}>
      {children}
    </select>,
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
