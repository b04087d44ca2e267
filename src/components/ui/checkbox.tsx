import { forwardRef, useEffect, useImperativeHandle, useRef, type InputHTMLAttributes } from 'react';
import { cn } from './cn';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** The "some but not all" state of a select-all box. */
  indeterminate?: boolean;
}

/** A native checkbox (so labels, forms and screen readers just work), styled for the dark theme. */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox({ indeterminate = false, className, ...rest }, ref) {
  const inner = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => inner.current as HTMLInputElement);
  useEffect(() => {
    if (inner.current) inner.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input ref={inner} type="checkbox" className={cn('size-4 shrink-0 cursor-pointer rounded border-zinc-600 accent-sky-500', className)} {...rest} />
  );
});
