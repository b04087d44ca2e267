import { useState } from 'react';
import type * as z from 'zod/mini';
import { Link, useNavigate } from 'react-router';
import { applicationServerCreateSchema } from '../../contract/admin-server-writes';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FormError, TextField } from '../../components/ui/field';
import { applyApiErrors } from '../../lib/form-errors';
import { useContractForm } from '../../lib/use-contract-form';
import { useCreateServer } from './api';
import { CreatePlacement } from './create-placement';
import { EggFields, findEgg, useEggChoice, type EggField } from './egg-fields';
import { FeatureFields, LimitFields, orNull, type FeatureKey, type LimitKey } from './limit-fields';
import { useT } from './messages';
import { OwnerField } from './owner-field';

type Input = z.input<typeof applicationServerCreateSchema>;
const DEFAULTS: Input = {
  name: '',
  user: '',
  egg: '',
  docker_image: '',
  startup: '',
  environment: {},
  limits: { memory: '1024', swap: '0', disk: '5120', io: '500', cpu: '100', threads: null },
  feature_limits: { databases: '0', allocations: '0', backups: '0' },
  skip_scripts: false,
  start_on_completion: true,
};

// The create body calls the startup body's `image` `docker_image`.
const named = (field: EggField) => (field === 'image' ? 'docker_image' : field);

/** A new server: owner, egg with its image and variables, limits, and where it runs (a node's free port, or any node of a location). */
export function CreateServerPage() {
  const t = useT();
  const navigate = useNavigate();
  const create = useCreateServer();
  const form = useContractForm(applicationServerCreateSchema, DEFAULTS);
  const { errors } = form.formState;
  const [message, setMessage] = useState<string | null>(null);
  const eggId = Number(form.watch('egg')) || 0;
  const choice = useEggChoice(eggId, (values) => form.setValue('environment', values));
  const fields = [
    'name',
    'user',
    'egg',
    'docker_image',
    'startup',
    'allocation.default',
    'allocation.additional',
    'deploy.locations',
    ...['memory', 'swap', 'disk', 'io', 'cpu', 'threads'].map((k) => `limits.${k}`),
    ...['databases', 'allocations', 'backups'].map((k) => `feature_limits.${k}`),
    ...choice.variables.map((v) => `environment.${v.env}`),
  ] as const;

  const pickEgg = (id: string) => {
    const next = findEgg(choice.nests, id);
    form.setValue('egg', id);
    if (!next) return;
    form.setValue('docker_image', next.docker_image);
    form.setValue('startup', next.startup);
    form.setValue('environment', {});
  };
  const submit = form.handleSubmit(async (body) => {
    setMessage(null);
    try {
      const made = await create.mutateAsync({ body });
      void navigate(`/admin/servers/${made.attributes.id}`);
    } catch (error) {
      setMessage(applyApiErrors(error, (name, e) => form.setError(name as never, e), { fields: fields as readonly string[] }));
    }
  });
  const limitErrors = Object.fromEntries((['memory', 'swap', 'disk', 'io', 'cpu', 'threads'] as const).map((k) => [k, errors.limits?.[k]?.message]));
  const featureErrors = Object.fromEntries((['databases', 'allocations', 'backups'] as const).map((k) => [k, errors.feature_limits?.[k]?.message]));

  return (
    <section aria-labelledby="create-server-heading" className="space-y-4">
      <Link to="/admin/servers" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        {t('adminServers.allServers')}
      </Link>
      <h2 id="create-server-heading" className="text-lg font-semibold text-white">
        {t('adminServers.create')}
      </h2>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex max-w-3xl flex-col gap-4">
        <FormError message={message} />
        <TextField label={t('adminServers.field.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <OwnerField register={form.register('user')} error={errors.user?.message} />
        <TextField
          label={t('adminServers.field.description')}
          autoComplete="off"
          error={errors.description?.message}
          {...form.register('description', { setValueAs: orNull })}
        />
        <CreatePlacement form={form} />
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.egg')}</legend>
          <EggFields
            choice={choice}
            egg={{ value: String(form.watch('egg')), onChange: pickEgg, error: errors.egg?.message }}
            register={(field) => form.register(named(field))}
            error={(field) => form.getFieldState(named(field), form.formState).error?.message}
          />
        </fieldset>
        <LimitFields
          register={(key: LimitKey) => form.register(`limits.${key}`, key === 'threads' ? { setValueAs: orNull } : undefined)}
          errors={limitErrors}
        />
        <FeatureFields register={(key: FeatureKey) => form.register(`feature_limits.${key}`, { setValueAs: orNull })} errors={featureErrors} />
        <label className="flex items-start gap-2 text-sm text-zinc-200">
          <Checkbox className="mt-0.5" {...form.register('skip_scripts')} />
          <span>{t('adminServers.startup.skip')}</span>
        </label>
        <label className="flex items-start gap-2 text-sm text-zinc-200">
          <Checkbox className="mt-0.5" {...form.register('start_on_completion')} />
          <span>{t('adminServers.create.startOnCompletion')}</span>
        </label>
        <div>
          <Button type="submit" loading={create.isPending}>
            {t('adminServers.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}
