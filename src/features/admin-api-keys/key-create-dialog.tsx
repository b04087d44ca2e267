import * as z from 'zod/mini';
import { applicationKeyCreateSchema, keyPermissionsSchema, type ApplicationKey } from '../../contract/admin-api-keys';
import { APPLICATION_RESOURCES } from '../../contract/endpoint';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useCreateApplicationKey } from './api';
import { RESOURCE_LABELS } from './key-permissions';
import { useT } from './messages';

// The dialog's form: allowed IPs typed one per line, sent as the contract's list.
const formSchema = z.object({
  description: applicationKeyCreateSchema.shape.description,
  permissions: keyPermissionsSchema,
  allowed_ips: z.pipe(
    z.string(),
    z.transform((v) => v.split(/\s+/).filter(Boolean)),
  ),
});
const defaults = {
  description: '',
  permissions: Object.fromEntries(APPLICATION_RESOURCES.map((r) => [r, 'none' as const])),
  allowed_ips: '',
};
const CHOICES = [
  ['none', 'adminApiKeys.access.none'],
  ['r', 'adminApiKeys.access.r'],
  ['rw', 'adminApiKeys.access.rw'],
] as const;

/** A new application key with a grant per resource; `onCreated` gets the key and its secret (shown once). */
export function KeyCreateDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (key: ApplicationKey, secret: string) => void;
}) {
  const create = useCreateApplicationKey();
  const form = useContractForm(formSchema, defaults);
  const { errors } = form.formState;
  const t = useT();
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      wide
      title={t('adminApiKeys.form.title')}
      description={t('adminApiKeys.form.description')}
      submitLabel={t('adminApiKeys.form.submit')}
      form={form}
      defaultValues={defaults}
      mutation={create}
      errorFields={{ fields: ['description', 'permissions', 'allowed_ips'] }}
      onSubmit={async (body, signal) => {
        const created = await create.mutateAsync({ body, signal });
        onCreated(created.attributes, created.meta.secret_token);
      }}
    >
      <TextField
        label={t('adminApiKeys.form.keyDescription')}
        autoComplete="off"
        error={errors.description?.message}
        {...form.register('description')}
      />
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-zinc-200">{t('adminApiKeys.form.permissions')}</legend>
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
          {APPLICATION_RESOURCES.map((resource) => (
            <label key={resource} className="flex items-center justify-between gap-3 text-sm text-zinc-300">
              <span>{t(RESOURCE_LABELS[resource])}</span>
              <select
                {...form.register(`permissions.${resource}`)}
                className="min-h-9 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
              >
                {CHOICES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {t(label)}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
        {errors.permissions?.message && (
          <p role="alert" className="text-sm text-red-400">
            {errors.permissions.message}
          </p>
        )}
      </fieldset>
      <TextAreaField
        label={t('adminApiKeys.form.ips')}
        rows={2}
        hint={t('adminApiKeys.form.ipsHint')}
        error={errors.allowed_ips?.message}
        {...form.register('allowed_ips')}
      />
    </MutationDialog>
  );
}
