import { Button } from '../../components/ui/button';
import { FormError, TextAreaField, TextField } from '../../components/ui/field';
import { eggScriptSchema, type EggScript } from '../../contract/egg-writes';
import type { AdminEgg } from '../../contract/eggs';
import { applyApiErrors } from '../../lib/form-errors';
import { useContractForm } from '../../lib/use-contract-form';
import { useSetScript, type EggRef } from './api';
import { useT } from './messages';
import { useState } from 'react';

const FIELDS = ['script_install', 'script_container', 'script_entry'] as const;

/** The egg's install script, its container image and entrypoint; it runs only in the install sandbox. */
export function EggScriptForm({ eggRef, egg }: { eggRef: EggRef; egg: AdminEgg }) {
  const t = useT();
  const save = useSetScript();
  const defaultValues: EggScript = {
    script_install: egg.script.install ?? '',
    script_container: egg.script.container,
    script_entry: egg.script.entry,
  };
  const form = useContractForm(eggScriptSchema, defaultValues);
  const { errors } = form.formState;
  const [message, setMessage] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    setMessage(null);
    try {
      await save.mutateAsync({ ref: eggRef, body });
      form.reset(body);
    } catch (error) {
      setMessage(applyApiErrors(error, form.setError, { fields: FIELDS }));
    }
  });
  return (
    <section aria-labelledby="egg-script" className="space-y-3 rounded-lg bg-zinc-900/60 p-4 ring-1 ring-zinc-800">
      <h3 id="egg-script" className="font-semibold text-white">
        {t('adminEggs.script.title')}
      </h3>
      <form onSubmit={(e) => void onSubmit(e)} className="space-y-3" noValidate>
        <FormError message={message} />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('adminEggs.script.container')}
            autoComplete="off"
            className="[&_input]:font-mono"
            error={errors.script_container?.message}
            {...form.register('script_container')}
          />
          <TextField
            label={t('adminEggs.script.entry')}
            autoComplete="off"
            className="[&_input]:font-mono"
            error={errors.script_entry?.message}
            {...form.register('script_entry')}
          />
        </div>
        <TextAreaField
          label={t('adminEggs.script.script')}
          rows={12}
          spellCheck={false}
          className="[&_textarea]:font-mono [&_textarea]:text-xs"
          error={errors.script_install?.message}
          {...form.register('script_install')}
        />
        <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
          {save.isPending ? t('adminEggs.script.saving') : t('adminEggs.script.save')}
        </Button>
      </form>
    </section>
  );
}
