import type * as z from 'zod/mini';
import { ApiError } from './http';
import { t } from './messages';

/*
 * Puts errors where the user is looking: a message about a request field goes
 * under that form field, anything else becomes one form-level message. Works with react-hook-form
 * (`setError` has the right shape) and with plain `useState` forms, without importing either, so
 * the small sign-in bundle can use it too.
 */

export type FieldErrorSetter<F extends string> = (name: F, error: { type: string; message: string }) => void;

export interface ApplyErrorsOptions<F extends string> {
  /** The form's fields; a `source.field` not listed here is shown as the form-level message. */
  fields: readonly F[];
  /** Request field → form field, when they are named differently (e.g. `{ user: 'login' }`). */
  rename?: Partial<Record<string, F>>;
}

/**
 * Maps `ApiError.fieldErrors()` onto form fields with `setError`, and returns the message to show
 * above the form, or null when every message landed on a field.
 *
 * ```ts
 * onError: (error) => setFormError(applyApiErrors(error, form.setError, { fields: ['name', 'description'] }))
 * ```
 */
export function applyApiErrors<F extends string>(error: unknown, setError: FieldErrorSetter<F>, options: ApplyErrorsOptions<F>): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : t('lib.error.tryAgain');
  const known = new Set<string>(options.fields);
  const leftovers: string[] = [];
  let placed = 0;
  for (const [requestField, message] of Object.entries(error.fieldErrors())) {
    const named = options.rename?.[requestField] ?? requestField;
    // An element of an array (`allowed_ips.2`) goes on the form field that holds the array.
    const field = known.has(named) ? named : named.replace(/\.\d+$/, '');
    if (known.has(field)) {
      setError(field as F, { type: 'server', message });
      placed += 1;
    } else {
      leftovers.push(message);
    }
  }
  if (leftovers.length > 0) return leftovers[0] ?? null;
  return placed > 0 ? null : error.message;
}

/**
 * First message per top-level field of a failed contract-schema parse, for forms validated with
 * `schema.safeParse` before sending (the same rule the server applies).
 */
export function issuesByField(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    const field = typeof key === 'string' || typeof key === 'number' ? String(key) : '';
    if (!(field in out)) out[field] = issue.message;
  }
  return out;
}
