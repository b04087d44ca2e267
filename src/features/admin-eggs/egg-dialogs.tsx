import { Checkbox } from '../../components/ui/checkbox';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { eggVariableWriteSchema, type EggVariableWrite } from '../../contract/egg-fields';
import type { AdminEgg, AdminEggVariable } from '../../contract/eggs';
import { useContractForm } from '../../lib/use-contract-form';
import { useSaveVariable, useUpdateEgg, type EggRef } from './api';
import { eggFormSchema, toBody, toForm } from './egg-form';

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
  const update = useUpdateEgg();
  const defaultValues = toForm(egg);
  const form = useContractForm(eggFormSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit egg"
      wide
      submitLabel="Save"
      form={form}
      defaultValues={defaultValues}
      mutation={update}
      errorFields={{ fields: EGG_FIELDS, rename: { docker_images: 'images' } }}
      onSubmit={(values, signal) => update.mutateAsync({ ref: eggRef, body: toBody(values), signal })}
    >
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label="Description" rows={2} error={errors.description?.message} {...form.register('description')} />
      <TextAreaField
        label="Startup command"
        rows={2}
        className="[&_textarea]:font-mono"
        error={errors.startup?.message}
        {...form.register('startup')}
      />
      <TextAreaField
        label="Docker images"
        rows={3}
        hint="One per line: Name|image reference."
        className="[&_textarea]:font-mono"
        error={errors.images?.message}
        {...form.register('images')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Stop command" autoComplete="off" error={errors.config_stop?.message} {...form.register('config_stop')} />
        <TextAreaField
          label="Startup detection (JSON)"
          rows={3}
          className="[&_textarea]:font-mono"
          error={errors.config_startup?.message}
          {...form.register('config_startup')}
        />
      </div>
      <TextAreaField
        label="File denylist"
        rows={2}
        hint="One path per line."
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
      title={variable ? `Edit variable ${variable.env_variable}` : 'Add variable'}
      submitLabel={variable ? 'Save variable' : 'Add variable'}
      form={form}
      defaultValues={defaultValues}
      mutation={save}
      errorFields={{ fields: VARIABLE_FIELDS }}
      onSubmit={(body, signal) => save.mutateAsync({ ref: eggRef, variable, body, signal })}
    >
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextAreaField label="Description" rows={2} error={errors.description?.message} {...form.register('description')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Environment variable"
          autoComplete="off"
          className="[&_input]:font-mono"
          error={errors.env_variable?.message}
          {...form.register('env_variable')}
        />
        <TextField label="Default value" autoComplete="off" error={errors.default_value?.message} {...form.register('default_value')} />
      </div>
      <TextField
        label="Rules"
        autoComplete="off"
        hint="Laravel rules, e.g. required|integer|between:1,100."
        className="[&_input]:font-mono"
        error={errors.rules?.message}
        {...form.register('rules')}
      />
      <div className="flex flex-wrap gap-4">
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <Checkbox {...form.register('user_viewable')} /> Users can see it
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <Checkbox {...form.register('user_editable')} /> Users can change it
        </label>
      </div>
    </MutationDialog>
  );
}
