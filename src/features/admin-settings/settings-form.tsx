import { useState, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { applyApiErrors } from '../../lib/form-errors';
import { useT } from './messages';

/**
 * One settings form: messages land on their fields (`rename` maps `mail.host` to `host`), the rest
 * above the buttons; "Saved" is announced after a success.
 */
export function SettingsForm<Input extends FieldValues, Output>({
  form,
  fields,
  rename,
  submitLabel,
  onSubmit,
  children,
  extra,
}: {
  form: UseFormReturn<Input, unknown, Output>;
  fields: readonly Path<Input>[];
  rename?: Partial<Record<string, Path<Input>>>;
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
  children: ReactNode;
  /** More buttons beside the submit button. */
  extra?: ReactNode;
}) {
  const t = useT();
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = form.handleSubmit(async (values) => {
    setMessage(null);
    setSaved(false);
    try {
      await onSubmit(values);
      setSaved(true);
    } catch (e) {
      setMessage(applyApiErrors(e, form.setError, { fields, rename }));
    }
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex max-w-xl flex-col gap-3">
      {children}
      <FormError message={message} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        {extra}
        <span role="status" className="text-sm text-emerald-300">
          {saved ? t('adminSettings.saved') : ''}
        </span>
      </div>
    </form>
  );
}
