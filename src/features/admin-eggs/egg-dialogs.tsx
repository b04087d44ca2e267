import { Checkbox } from '../../components/ui/checkbox';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { eggVariableWriteSchema, type EggVariableWrite } from '../../contract/egg-fields';
import type { AdminEgg, AdminEggVariable } from '../../contract/eggs';
import { useContractForm } from '../../lib/use-contract-form';
import { useSaveVariable, useUpdateEgg, type EggRef } from './api';
import { eggFormSchema, toBody, toForm } from './egg-form';
import { useT } from './messages';

const EGG_FIELDS = ['name', 'description', 'startup', 'config_stop', 'config_startup', 'images', 'file_denylist'] as const;

/** Changing an egg's details, startup, images and config, validated by the contract's fields. */
export function EggFormDialog({
  eggRef,
  egg,
  open,
  onOpenChange,
}: {
  eggRef: EggRef;
  egg: AdminEgg;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  const update = useUpdateEgg();
  const defaultValues = toForm(egg);
  const form = useContractForm(eggFormSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminEggs.edit')}
      wide
      submitLabel={t('adminEggs.save')}
      form={form}
      defaultValues={defaultValues}
      mutation={update}
      errorFields={{ fields: EGG_FIELDS, rename: { docker_images: 'images' } }}
      onSubmit={(values, signal) => update.mutateAsync({ ref: eggRef, body: toBody(values), signal })}
    >
      <TextField label={t('adminEggs.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label={t('adminEggs.description')} rows={2} error={errors.description?.message} {...form.register('description')} />
      <TextAreaField
        label={t('adminEggs.startup')}
        rows={2}
        className="[&_textarea]:font-mono"
        error={errors.startup?.message}
        {...form.register('startup')}
      />
      <TextAreaField
        label={t('adminEggs.dockerImages')}
        rows={3}
        hint={t('adminEggs.imagesHint')}
        className="[&_textarea]:font-mono"
        error={errors.images?.message}
        {...form.register('images')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label={t('adminEggs.stop')} autoComplete="off" error={errors.config_stop?.message} {...form.register('config_stop')} />
        <TextAreaField
          label={t('adminEggs.detection')}
          rows={3}
          className="[&_textarea]:font-mono"
          error={errors.config_startup?.message}
          {...form.register('config_startup')}
        />
      </div>
      <TextAreaField
        label={t('adminEggs.denylist')}
        rows={2}
        hint={t('adminEggs.denylistHint')}
        error={errors.file_denylist?.message}
        {...form.register('file_denylist')}
      />
    </MutationDialog>
  );
}

const VARIABLE_FIELDS = ['name', 'description', 'env_variable', 'default_value', 'user_viewable', 'user_editable', 'rules'] as const;
const EMPTY_VARIABLE: EggVariableWrite = {
  name: '',
  description: '',
  env_variable: '',
  default_value: '',
  user_viewable: true,
  user_editable: true,
  rules: '',
};

/** Adding a variable (`variable` null) or changing one; its rules are checked as the server checks them. */
export function VariableFormDialog({
  eggRef,
  variable,
  open,
  onOpenChange,
}: {
  eggRef: EggRef;
  variable: AdminEggVariable | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  const save = useSaveVariable();
  const defaultValues: EggVariableWrite = variable
    ? {
        name: variable.name,
        description: variable.description,
        env_variable: variable.env_variable,
        default_value: variable.default_value,
        user_viewable: variable.user_viewable,
        user_editable: variable.user_editable,
        rules: variable.rules,
      }
    : EMPTY_VARIABLE;
  const form = useContractForm(eggVariableWriteSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={variable ? t('adminEggs.variable.editTitle', { env: variable.env_variable }) : t('adminEggs.addVariable')}
      submitLabel={variable ? t('adminEggs.variable.save') : t('adminEggs.addVariable')}
      form={form}
      defaultValues={defaultValues}
      mutation={save}
      errorFields={{ fields: VARIABLE_FIELDS }}
      onSubmit={(body, signal) => save.mutateAsync({ ref: eggRef, variable, body, signal })}
    >
      <TextField label={t('adminEggs.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label={t('adminEggs.description')} rows={2} error={errors.description?.message} {...form.register('description')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('adminEggs.variable.env')}
          autoComplete="off"
          className="[&_input]:font-mono"
          error={errors.env_variable?.message}
          {...form.register('env_variable')}
        />
        <TextField
          label={t('adminEggs.variable.default')}
          autoComplete="off"
          error={errors.default_value?.message}
          {...form.register('default_value')}
        />
      </div>
      <TextField
        label={t('adminEggs.variable.rules')}
        autoComplete="off"
        hint={t('adminEggs.variable.rulesHint')}
        className="[&_input]:font-mono"
        error={errors.rules?.message}
        {...form.register('rules')}
      />
      <div className="flex flex-wrap gap-4">
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <Checkbox {...form.register('user_viewable')} /> {t('adminEggs.variable.canSee')}
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <Checkbox {...form.register('user_editable')} /> {t('adminEggs.variable.canChange')}
        </label>
      </div>
    </MutationDialog>
  );
}
