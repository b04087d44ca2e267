import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { databaseHostCreateSchema, type DatabaseHost } from '../../contract/admin-database-hosts';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { adminDatabaseHostQueries, useCreateDatabaseHost, useUpdateDatabaseHost } from './api';
import { useT } from './messages';

// Typed boxes: an empty "max databases" is no limit, an empty node none, an empty password (when
// editing) the stored one.
const optionalInt = z.pipe(
  z.string(),
  z.transform((v) => (v.trim() === '' ? null : Number(v))),
);
const shape = databaseHostCreateSchema.shape;
const formSchema = z.object({
  name: shape.name,
  host: shape.host,
  port: z.pipe(
    z.string(),
    z.transform((v) => Number(v)),
  ),
  username: shape.username,
  password: z.string(),
  max_databases: optionalInt,
  node: optionalInt,
});
type FormInput = z.input<typeof formSchema>;
const FIELDS = ['name', 'host', 'port', 'username', 'password', 'max_databases', 'node'] as const;

/** Adding a host (`host` null) or changing one. The panel connects with the account before it saves anything. */
export function HostFormDialog({ host, open, onOpenChange }: { host: DatabaseHost | null; open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT();
  const create = useCreateDatabaseHost();
  const update = useUpdateDatabaseHost();
  const nodes = useQuery({ ...adminDatabaseHostQueries.nodes(), enabled: open });
  const defaults: FormInput = {
    name: host?.name ?? '',
    host: host?.host ?? '',
    port: String(host?.port ?? 3306),
    username: host?.username ?? '',
    password: '',
    max_databases: host?.max_databases === null || host === null ? '' : String(host.max_databases),
    node: host?.node == null ? '' : String(host.node),
  };
  const form = useContractForm(formSchema, defaults);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={host ? t('adminDatabaseHosts.form.edit') : t('adminDatabaseHosts.add')}
      description={t('adminDatabaseHosts.form.description')}
      submitLabel={host ? t('adminDatabaseHosts.form.save') : t('adminDatabaseHosts.form.addHost')}
      form={form}
      defaultValues={defaults}
      mutation={host ? update : create}
      errorFields={{ fields: FIELDS }}
      onSubmit={async ({ password, ...values }, signal) => {
        if (host) return update.mutateAsync({ host, body: { ...values, ...(password ? { password } : {}) }, signal });
        return create.mutateAsync({ body: { ...values, password }, signal });
      }}
    >
      <TextField
        label={t('adminDatabaseHosts.form.name')}
        autoComplete="off"
        hint={t('adminDatabaseHosts.form.nameHint')}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_8rem]">
        <TextField label={t('adminDatabaseHosts.form.host')} autoComplete="off" error={errors.host?.message} {...form.register('host')} />
        <TextField
          label={t('adminDatabaseHosts.form.port')}
          inputMode="numeric"
          autoComplete="off"
          error={errors.port?.message}
          {...form.register('port')}
        />
      </div>
      <TextField label={t('adminDatabaseHosts.form.username')} autoComplete="off" error={errors.username?.message} {...form.register('username')} />
      <TextField
        label={t('adminDatabaseHosts.form.password')}
        type="password"
        autoComplete="new-password"
        hint={host ? t('adminDatabaseHosts.form.passwordKeep') : t('adminDatabaseHosts.form.passwordSealed')}
        error={errors.password?.message}
        {...form.register('password')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('adminDatabaseHosts.form.max')}
          inputMode="numeric"
          autoComplete="off"
          hint={t('adminDatabaseHosts.form.maxHint')}
          error={errors.max_databases?.message}
          {...form.register('max_databases')}
        />
        <label className="flex flex-col gap-1.5 text-sm text-zinc-200">
          <span className="font-medium">{t('adminDatabaseHosts.form.node')}</span>
          <select
            {...form.register('node')}
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            <option value="">{t('adminDatabaseHosts.form.noNode')}</option>
            {(nodes.data ?? []).map((n) => (
              <option key={n.id} value={String(n.id)}>
                {n.name}
              </option>
            ))}
          </select>
          {errors.node?.message && <span className="text-sm text-red-400">{errors.node.message}</span>}
        </label>
      </div>
    </MutationDialog>
  );
}
