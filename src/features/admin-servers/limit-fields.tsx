import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/ui/field';

/* The resource and feature limits, the same on the build form and the create form. */

export const LIMITS = {
  memory: { label: 'Memory (MiB)', hint: '0: no limit.' },
  swap: { label: 'Swap (MiB)', hint: '0: none; -1: no limit.' },
  disk: { label: 'Disk (MiB)', hint: '0: no limit.' },
  cpu: { label: 'CPU (%)', hint: '100 is one core; 0: no limit.' },
  threads: { label: 'CPU threads', hint: 'Optional: the cores it may run on, e.g. 0-1,3.' },
  io: { label: 'Block I/O weight', hint: '10 to 1000; 500 is the usual share.' },
} as const;
export type LimitKey = keyof typeof LIMITS;

export const FEATURES = {
  databases: { label: 'Databases', hint: 'How many the owner may create; empty: no limit.' },
  allocations: { label: 'Allocations', hint: 'How many ports the owner may add; empty: no limit.' },
  backups: { label: 'Backups', hint: 'How many the owner may keep; empty: no limit.' },
} as const;
export type FeatureKey = keyof typeof FEATURES;

export function LimitFields({
  register,
  errors,
}: {
  register: (key: LimitKey) => UseFormRegisterReturn;
  errors: Partial<Record<LimitKey, string | undefined>>;
}) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">Resources</legend>
      {(Object.keys(LIMITS) as LimitKey[]).map((key) => (
        <TextField
          key={key}
          label={LIMITS[key].label}
          hint={LIMITS[key].hint}
          inputMode={key === 'threads' ? 'text' : 'numeric'}
          autoComplete="off"
          error={errors[key]}
          {...register(key)}
        />
      ))}
    </fieldset>
  );
}

export function FeatureFields({
  register,
  errors,
}: {
  register: (key: FeatureKey) => UseFormRegisterReturn;
  errors: Partial<Record<FeatureKey, string | undefined>>;
}) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">Feature limits</legend>
      {(Object.keys(FEATURES) as FeatureKey[]).map((key) => (
        <TextField
          key={key}
          label={FEATURES[key].label}
          hint={FEATURES[key].hint}
          inputMode="numeric"
          autoComplete="off"
          error={errors[key]}
          {...register(key)}
        />
      ))}
    </fieldset>
  );
}

/** An empty box is "no limit" (null); threads' empty box is "any core". */
export const orNull = (v: unknown) => (v === '' ? null : v);
