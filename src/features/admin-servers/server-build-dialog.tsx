import type * as z from 'zod/mini';
import { applicationServerBuildSchema } from '../../contract/admin-server-writes';
import { type ApplicationServer } from '../../contract/admin-servers';
import { Checkbox } from '../../components/ui/checkbox';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { SelectField } from '../../components/ui/field';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangeBuild } from './api';
import { PortOptions, PortsField, useFreePorts } from './free-ports';
import { FeatureFields, LimitFields, orNull, type FeatureKey, type LimitKey } from './limit-fields';
import { useT } from './messages';
import { allocationsOf } from './server-relations';

type Input = z.input<typeof applicationServerBuildSchema>;
const FIELDS = [
  'allocation',
  'oom_disabled',
  'limits.memory',
  'limits.swap',
  'limits.disk',
  'limits.io',
  'limits.cpu',
  'limits.threads',
  'feature_limits.databases',
  'feature_limits.allocations',
  'feature_limits.backups',
  'add_allocations',
  'remove_allocations',
] as const;
const text = (v: number | null) => (v === null ? '' : String(v));

/** The server's limits and ports; the node is told at once (a running server gets new limits on its next start). */
export function ServerBuildDialog({
  server,
  open,
  onOpenChange,
}: {
  server: ApplicationServer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  const change = useChangeBuild();
  const held = allocationsOf(server);
  const { ports } = useFreePorts(server.node, open);
  const { limits, feature_limits: features } = server;
  const defaultValues: Input = {
    allocation: server.allocation === null ? '' : String(server.allocation),
    oom_disabled: limits.oom_disabled,
    limits: {
      memory: String(limits.memory),
      swap: String(limits.swap),
      disk: String(limits.disk),
      io: String(limits.io),
      cpu: String(limits.cpu),
      threads: limits.threads,
    },
    feature_limits: { databases: text(features.databases), allocations: text(features.allocations), backups: text(features.backups) },
    add_allocations: [],
    remove_allocations: [],
  };
  const form = useContractForm(applicationServerBuildSchema, defaultValues);
  const { errors } = form.formState;
  const limitErrors = Object.fromEntries((['memory', 'swap', 'disk', 'io', 'cpu', 'threads'] as const).map((k) => [k, errors.limits?.[k]?.message]));
  const featureErrors = Object.fromEntries((['databases', 'allocations', 'backups'] as const).map((k) => [k, errors.feature_limits?.[k]?.message]));

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminServers.build.title')}
      description={<span className="break-all">{server.name}</span>}
      submitLabel={t('adminServers.save')}
      wide
      form={form}
      defaultValues={defaultValues}
      mutation={change}
      errorFields={{ fields: FIELDS }}
      onSubmit={(body, signal) => change.mutateAsync({ server, body, signal })}
    >
      <LimitFields
        register={(key: LimitKey) => form.register(`limits.${key}`, key === 'threads' ? { setValueAs: orNull } : undefined)}
        errors={limitErrors}
      />
      <label className="flex items-start gap-2 text-sm text-zinc-200">
        <Checkbox className="mt-0.5" {...form.register('oom_disabled')} />
        <span>
          {t('adminServers.build.oom')}
          <span className="block text-xs text-zinc-400">{t('adminServers.build.oomHint')}</span>
        </span>
      </label>
      <FeatureFields register={(key: FeatureKey) => form.register(`feature_limits.${key}`, { setValueAs: orNull })} errors={featureErrors} />
      <fieldset className="grid gap-3 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.limits.ports')}</legend>
        <SelectField label={t('adminServers.ports.primary')} error={errors.allocation?.message} {...form.register('allocation')}>
          <PortOptions ports={held} />
        </SelectField>
        <PortsField
          label={t('adminServers.build.add')}
          ports={ports}
          hint={ports.length ? t('adminServers.build.addHint') : t('adminServers.build.noFree')}
          error={errors.add_allocations?.message}
          {...form.register('add_allocations')}
        />
        <PortsField
          label={t('adminServers.build.remove')}
          ports={held}
          except={server.allocation}
          hint={t('adminServers.build.removeHint')}
          error={errors.remove_allocations?.message}
          {...form.register('remove_allocations')}
        />
      </fieldset>
    </MutationDialog>
  );
}
