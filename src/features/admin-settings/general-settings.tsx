import * as z from 'zod/mini';
import { panelNameSchema, TWO_FACTOR_LEVELS, type PanelSettings, type TwoFactorLevel } from '../../contract/admin-settings';
import { Card } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { useContractForm } from '../../lib/use-contract-form';
import { useUpdateSettings } from './api';
import { useT } from './messages';
import { SettingsForm } from './settings-form';

const nameSchema = z.object({ panel_name: panelNameSchema });

/** The panel's name, shown in the header, the page titles and on the sign-in page, for everyone. */
export function PanelNameCard({ settings }: { settings: PanelSettings }) {
  const t = useT();
  const update = useUpdateSettings();
  const form = useContractForm(nameSchema, { panel_name: settings.panel_name });
  const { errors } = form.formState;
  return (
    <Card title={t('adminSettings.name.title')}>
      <SettingsForm form={form} fields={['panel_name']} submitLabel={t('adminSettings.name.save')} onSubmit={(body) => update.mutateAsync({ body })}>
        <TextField
          label={t('adminSettings.name.title')}
          autoComplete="off"
          hint={t('adminSettings.name.hint')}
          error={errors.panel_name?.message}
          {...form.register('panel_name')}
        />
      </SettingsForm>
    </Card>
  );
}

const LEVELS = {
  off: { label: 'adminSettings.twoFactor.off', hint: 'adminSettings.twoFactor.offHint' },
  admins: { label: 'adminSettings.twoFactor.admins', hint: 'adminSettings.twoFactor.adminsHint' },
  everyone: { label: 'adminSettings.twoFactor.everyone', hint: 'adminSettings.twoFactor.everyoneHint' },
} as const satisfies Record<TwoFactorLevel, { label: string; hint: string }>;
const levelSchema = z.object({ require_two_factor: z.enum(TWO_FACTOR_LEVELS) });

/** Who must use two-factor authentication: until they set it up, they reach only their account's two-factor page. */
export function TwoFactorPolicyCard({ settings }: { settings: PanelSettings }) {
  const t = useT();
  const update = useUpdateSettings();
  const form = useContractForm(levelSchema, { require_two_factor: settings.require_two_factor });
  return (
    <Card title={t('adminSettings.twoFactor.title')}>
      <SettingsForm
        form={form}
        fields={['require_two_factor']}
        submitLabel={t('adminSettings.twoFactor.save')}
        onSubmit={(body) => update.mutateAsync({ body })}
      >
        <fieldset className="space-y-2">
          <legend className="sr-only">{t('adminSettings.twoFactor.legend')}</legend>
          {TWO_FACTOR_LEVELS.map((level) => (
            <label key={level} className="flex items-start gap-2 text-sm text-zinc-200">
              <input type="radio" value={level} className="mt-1 accent-sky-500" {...form.register('require_two_factor')} />
              <span>
                {t(LEVELS[level].label)}
                <span className="block text-xs text-zinc-400">{t(LEVELS[level].hint)}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </SettingsForm>
    </Card>
  );
}
