import type { ReactNode } from 'react';
import { useT } from '../messages';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormError } from './field';
import { useAbortableSubmit, type MutationState } from './use-abortable-submit';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** A wider dialog (see Dialog). */
  wide?: boolean;
  confirmLabel: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
  /** Keeps the confirm button off until the dialog's own condition holds (a typed name). */
  confirmDisabled?: boolean;
  /** The mutation confirming runs: the dialog shows its `isPending` and `error`. */
  mutation?: MutationState;
  /** Does the thing; when it returns a promise the dialog closes once it resolves. */
  onConfirm: (signal: AbortSignal) => Promise<unknown> | void;
}

/** Asks before doing something that cannot be undone; Cancel always works, aborting a running request. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  wide,
  children,
  confirmLabel,
  danger,
  confirmDisabled,
  mutation,
  onConfirm,
}: ConfirmDialogProps) {
  const t = useT();
  const { start, close, pending } = useAbortableSubmit(open, onOpenChange, mutation);

  async function confirm() {
    if (pending || confirmDisabled) return;
    const signal = start();
    const result = onConfirm(signal);
    if (!result) return;
    try {
      await result;
      if (!signal.aborted) onOpenChange(false);
    } catch {
      // Shown from the mutation's own error below.
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={title}
      description={description}
      wide={wide}
      footer={
        <>
          <Button variant="secondary" onClick={() => close(false)}>
            {t('ui.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={() => void confirm()} loading={pending} disabled={confirmDisabled}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {mutation?.error && (
        <div className="mt-3">
          <FormError message={mutation.error.message} />
        </div>
      )}
    </Dialog>
  );
}
