import { locationCreateSchema, type Location, type LocationCreate } from '../../contract/locations';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useCreateLocation, useDeleteLocation, useUpdateLocation } from './api';
import { T, useT } from './messages';

const FIELDS = ['short', 'long'] as const;
// An empty description is none (the API takes null, not '').
const orNull = (v: unknown) => (v === '' ? null : v);

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Creating a location (`location` null) or changing one, with the contract's rules. */
export function LocationFormDialog({ location, open, onOpenChange }: DialogProps & { location: Location | null }) {
  const create = useCreateLocation();
  const update = useUpdateLocation();
  const defaultValues: LocationCreate = location ? { short: location.short, long: location.long } : { short: '', long: null };
  const form = useContractForm(locationCreateSchema, defaultValues);
  const { errors } = form.formState;
  const t = useT();
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(location ? 'adminLocations.edit' : 'adminLocations.create')}
      description={t('adminLocations.form.description')}
      submitLabel={t(location ? 'adminLocations.form.save' : 'adminLocations.create')}
      form={form}
      defaultValues={defaultValues}
      mutation={location ? update : create}
      errorFields={{ fields: FIELDS }}
      onSubmit={(body, signal) => (location ? update.mutateAsync({ location, body, signal }) : create.mutateAsync({ body, signal }))}
    >
      <TextField label={t('adminLocations.form.short')} autoComplete="off" error={errors.short?.message} {...form.register('short')} />
      <TextField
        label={t('adminLocations.form.long')}
        autoComplete="off"
        hint={t('adminLocations.form.optional')}
        error={errors.long?.message}
        {...form.register('long', { setValueAs: orNull })}
      />
    </MutationDialog>
  );
}

/** Deleting is refused while nodes are in the location: the panel's refusal shows in the dialog. */
export function DeleteLocationDialog({ location, open, onOpenChange }: DialogProps & { location: Location }) {
  const remove = useDeleteLocation();
  const t = useT();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminLocations.deleteDialog.title')}
      description={<T k="adminLocations.deleteDialog.text" values={{ short: location.short }} components={{ 0: <span className="break-all" /> }} />}
      confirmLabel={t('adminLocations.delete')}
      danger
      mutation={remove}
      onConfirm={(signal) => remove.mutateAsync({ location, signal })}
    />
  );
}
