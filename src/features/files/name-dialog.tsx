import { useEffect, useMemo, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import type { MutationState } from '../../components/ui/use-abortable-submit';
import { TextField } from '../../components/ui/field';
import { useContractForm } from '../../lib/use-contract-form';
import { t } from './messages';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  label: string;
  initialValue: string;
  confirmLabel: string;
  /** A problem with the value as typed that the contract cannot know (a name already taken), or null. */
  validate: (value: string) => string | null;
  /**
   * The request the value becomes and the contract schema the server checks it with, so the
   * field refuses what the server would refuse, with its message.
   */
  request?: { schema: z.ZodMiniType; build: (value: string) => unknown };
  /** What submitting would do, shown under the field as the user types (e.g. the resolved path). */
  preview?: (value: string) => ReactNode;
  /** Selects this many leading characters on open (the name without its extension). */
  selectLength?: number;
  /** Request field names (`source.field`) that are about this value, e.g. `name` or `files`. */
  requestFields?: readonly string[];
  mutation?: MutationState;
  onSubmit: (value: string, signal: AbortSignal) => Promise<unknown> | void;
}

/**
 * One text field in a dialog: new folder, new file, rename, move. A MutationDialog: the request's
 * error shows in the dialog that started it (on the field when it names one of `requestFields`),
 * and the dialog closes on success.
 */
export function NameDialog(p: Props) {
  const { validate, request } = p;
  const schema = useMemo(
    () =>
      z.object({
        name: z.string().check(
          z.superRefine((value, ctx) => {
            const problem = validate(value) ?? contractProblem(request, value.trim());
            if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
          }),
        ),
      }),
    [validate, request],
  );
  const defaultValues = { name: p.initialValue };
  const form = useContractForm(schema, defaultValues);
  const value = form.watch('name');
  const rename = useMemo(() => Object.fromEntries((p.requestFields ?? []).map((f) => [f, 'name' as const])), [p.requestFields]);

  // Select the part worth retyping once Radix has moved focus into the field.
  const { open, selectLength } = p;
  useEffect(() => {
    if (!open) return;
    const t = setTimeout(() => {
      const el = document.activeElement;
      if (el instanceof HTMLInputElement) el.setSelectionRange(0, selectLength ?? el.value.length);
    }, 0);
    return () => clearTimeout(t);
  }, [open, selectLength]);

  const field = form.register('name');
  return (
    <MutationDialog
      open={p.open}
      onOpenChange={p.onOpenChange}
      title={p.title}
      description={p.description}
      submitLabel={p.confirmLabel}
      form={form}
      defaultValues={defaultValues}
      mutation={p.mutation}
      onSubmit={(values, signal) => p.onSubmit(values.name.trim(), signal)}
      errorFields={{ fields: ['name'], rename }}
    >
      <TextField
        {...field}
        label={p.label}
        autoComplete="off"
        spellCheck={false}
        className="[&_input]:font-mono"
        error={form.formState.errors.name?.message}
        hint={p.preview?.(value ?? '')}
      />
    </MutationDialog>
  );
}

function contractProblem(request: Props['request'], value: string): string | null {
  if (!request) return null;
  const result = request.schema.safeParse(request.build(value));
  return result.success ? null : (result.error.issues[0]?.message ?? t('files.name.invalid'));
}
