import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { placeAccountErrors } from './api';

/**
 * A form on an account page: the submit button shows the request running, messages land on their
 * fields (a wrong current password on `passwordField`), the rest above the button.
 */
export function AccountForm<Input extends FieldValues, Output>({
  form,
  fields,
  passwordField,
  submitLabel,
  pending,
  error,
  onSubmit,
  children,
  danger,
}: {
  form: UseFormReturn<Input, unknown, Output>;
  fields: readonly Path<Input>[];
  passwordField?: Path<Input>;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: Output) => Promise<unknown>;
  children: ReactNode;
  danger?: boolean;
}) {
  const submit = form.handleSubmit(async (values) => {
    if (pending) return;
    try {
      await onSubmit(values);
    } catch (e) {
      placeAccountErrors(e, form.setError, fields, passwordField);
    }
  });
  const message = error ? placeAccountErrors(error, () => undefined, fields, passwordField) : null;
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex max-w-md flex-col gap-3">
      {children}
      <FormError message={message} />
      <div>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
