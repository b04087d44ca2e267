import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { DefaultValues, FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { applyApiErrors, type ApplyErrorsOptions } from '../../lib/form-errors';
import { useT } from '../messages';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormError } from './field';
import { useAbortableSubmit, type MutationState } from './use-abortable-submit';

export interface MutationDialogProps<Input extends FieldValues, Output> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** A wider dialog (see Dialog). */
  wide?: boolean;
  submitLabel: string;
  /** The form (see `useContractForm`); its values are reset to `defaultValues` on every opening. */
  form: UseFormReturn<Input, unknown, Output>;
  defaultValues: DefaultValues<Input>;
  /** The mutation the submit runs: the dialog shows its `isPending` and `error`. */
  mutation?: MutationState;
  /** Runs the request (usually `mutation.mutateAsync`); the dialog closes when it resolves. */
  onSubmit: (values: Output, signal: AbortSignal) => Promise<unknown> | void;
  /** Form fields for server errors with `source.field`, and request → form field names. */
  errorFields: ApplyErrorsOptions<Path<Input>>;
  children: ReactNode;
}

/**
 * A form in a dialog: submit is disabled while the request runs, a server message about a field
 * lands on that field and any other shows above the form, the dialog closes on success, and
 * Cancel (or Escape) always works, aborting a request still running.
 */
export function MutationDialog<Input extends FieldValues, Output>(p: MutationDialogProps<Input, Output>) {
  const t = useT();
  const formId = useId();
  const { start, close, pending } = useAbortableSubmit(p.open, p.onOpenChange, p.mutation);

  // Fresh values on every opening (the form outlives the dialog's content).
  const latest = useRef({ form: p.form, defaultValues: p.defaultValues });
  useEffect(() => {
    latest.current = { form: p.form, defaultValues: p.defaultValues };
  });
  useEffect(() => {
    if (p.open) latest.current.form.reset(latest.current.defaultValues);
  }, [p.open]);

  const submit = p.form.handleSubmit(async (values) => {
    if (pending) return;
    const signal = start();
    try {
      await p.onSubmit(values, signal);
      if (!signal.aborted) p.onOpenChange(false);
    } catch (error) {
      if (signal.aborted) return;
      // Field messages go onto their fields; the rest is read from the mutation's error below.
      applyApiErrors(error, p.form.setError, p.errorFields);
    }
  });

  const message = p.mutation?.error ? applyApiErrors(p.mutation.error, () => undefined, p.errorFields) : null;

  return (
    <Dialog
      open={p.open}
      onOpenChange={close}
      title={p.title}
      description={p.description}
      wide={p.wide}
      footer={
        <>
          <Button variant="secondary" onClick={() => close(false)}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {p.submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
        {p.children}
        <FormError message={message} />
      </form>
    </Dialog>
  );
}
