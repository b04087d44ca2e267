import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/ui/field';
import { useT } from './messages';

/* The resource and feature limits, the same on the build form and the create form. */

export const LIMITS = {
  memory: { label: 'adminServers.limitField.memory', hint: 'adminServers.limitField.memoryHint' },
  swap: { label: 'adminServers.limitField.swap', hint: 'adminServers.limitField.swapHint' },
  disk: { label: 'adminServers.limitField.disk', hint: 'adminServers.limitField.memoryHint' },
  cpu: { label: 'adminServers.limitField.cpu', hint: 'adminServers.limitField.cpuHint' },
  threads: { label: 'adminServers.limitField.threads', hint: 'adminServers.limitField.threadsHint' },
  io: { label: 'adminServers.limits.io', hint: 'adminServers.limitField.ioHint' },
} as const;
export type LimitKey = keyof typeof LIMITS;

export const FEATURES = {
  databases: { label: 'adminServers.limits.databases', hint: 'adminServers.limitField.databasesHint' },
  allocations: { label: 'adminServers.limits.allocations', hint: 'adminServers.limitField.allocationsHint' },
  backups: { label: 'adminServers.limits.backups', hint: 'adminServers.limitField.backupsHint' },
} as const;
export type FeatureKey = keyof typeof FEATURES;

export function LimitFields({
  register,
  errors,
}: {
  register: (key: LimitKey) => UseFormRegisterReturn;
  errors: Partial<Record<LimitKey, string | undefined>>;
}) {
  const t = useT();
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.limitField.resources')}</legend>
      {(Object.keys(LIMITS) as LimitKey[]).map((key) => (
        <TextField
          key={key}
          label={t(LIMITS[key].label)}
          hint={t(LIMITS[key].hint)}
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
  const t = useT();
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.limitField.features')}</legend>
      {(Object.keys(FEATURES) as FeatureKey[]).map((key) => (
        <TextField
          key={key}
          label={t(FEATURES[key].label)}
          hint={t(FEATURES[key].hint)}
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
