import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/field';
import { ApiError } from '../../lib/http';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  label: string;
  initialValue: string;
  confirmLabel: string;
  /** A problem with the value as typed (shown on the field, blocks submit), or null. */
  validate: (value: string) => string | null;
  /** What submitting would do, shown under the field as the user types (e.g. the resolved path). */
  preview?: (value: string) => ReactNode;
  /** Selects this many leading characters on open (the name without its extension). */
  selectLength?: number;
  onSubmit: (value: string) => Promise<unknown> | void;
}

/**
 * One text field in a dialog: new folder, new file, rename, move. The request's error (and a
 * field error from `source.field`) shows in the dialog that started it; the dialog closes on success.
 */
export function NameDialog(p: Props) {
  const formId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(p.initialValue);
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!p.open) return;
    setValue(p.initialValue);
    setTouched(false);
    setError(null);
    setPending(false);
    // After Radix has moved focus into the dialog.
    const t = setTimeout(() => {
      const el = input.current;
      if (el) el.setSelectionRange(0, p.selectLength ?? el.value.length);
    }, 0);
    return () => clearTimeout(t);
  }, [p.open, p.initialValue, p.selectLength]);

  const problem = p.validate(value);

  async function submit() {
    setTouched(true);
    if (problem || pending) return;
    setPending(true);
    setError(null);
    try {
      await p.onSubmit(value.trim());
      p.onOpenChange(false);
    } catch (err) {
      setError(err instanceof ApiError ? (Object.values(err.fieldErrors())[0] ?? err.message) : 'Something went wrong.');
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={p.open}
      onOpenChange={(open) => !pending && p.onOpenChange(open)}
      title={p.title}
      description={p.description}
      footer={
        <>
          <Button variant="secondary" onClick={() => p.onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {p.confirmLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          ref={input}
          label={p.label}
          value={value}
          autoComplete="off"
          spellCheck={false}
          className="[&_input]:font-mono"
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
          error={(touched && problem) || error || undefined}
          hint={p.preview?.(value)}
        />
      </form>
    </Dialog>
  );
}
