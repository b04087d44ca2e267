import { useState } from 'react';
import * as z from 'zod/mini';
import { mailSettingsInput, SMTP_ENCRYPTIONS, type PanelSettings } from '../../contract/admin-settings';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { CheckResult } from '../../components/ui/states';
import { useContractForm } from '../../lib/use-contract-form';
import { useSendTestMail, useUpdateSettings } from './api';
import { useT } from './messages';
import { SettingsForm } from './settings-form';

const shape = mailSettingsInput.shape;
// Typed boxes: the port as text; an empty password keeps the stored one.
const formSchema = z.object({
  host: shape.host,
  port: z.pipe(
    z.string(),
    z.transform((v) => Number(v)),
  ),
  encryption: shape.encryption,
  username: z.string(),
  password: z.string(),
  from_address: shape.from_address,
  from_name: z.string(),
});
const FIELDS = ['host', 'port', 'encryption', 'username', 'password', 'from_address', 'from_name'] as const;
const RENAME = Object.fromEntries(FIELDS.map((f) => [`mail.${f}`, f]));
// STARTTLS and SMTPS are names, the same in every language.
const ENCRYPTION_LABELS = { starttls: 'STARTTLS', tls: 'TLS (SMTPS)' } as const;

const SOURCE = {
  settings: 'adminSettings.mail.source.settings',
  environment: 'adminSettings.mail.source.environment',
  none: 'adminSettings.mail.source.none',
} as const satisfies Record<PanelSettings['mail_source'], string>;

/** The SMTP server the panel sends mail through, and a test mail to your own address. */
export function MailSettingsCard({ settings }: { settings: PanelSettings }) {
  const t = useT();
  const update = useUpdateSettings();
  const sendTest = useSendTestMail();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const mail = settings.mail;
  const defaults = {
    host: mail?.host ?? '',
    port: String(mail?.port ?? 587),
    encryption: mail?.encryption ?? 'starttls',
    username: mail?.username ?? '',
    password: '',
    from_address: mail?.from_address ?? '',
    from_name: mail?.from_name ?? '',
  };
  const form = useContractForm(formSchema, defaults);
  const { errors } = form.formState;

  async function test() {
    setResult(null);
    try {
      const sent = await sendTest.mutateAsync({});
      setResult({ ok: true, text: t('adminSettings.mail.testSent', { to: sent.attributes.to }) });
    } catch (error) {
      setResult({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <Card title={t('adminSettings.mail.title')}>
      <p className="mb-3 text-sm text-zinc-400">{t(SOURCE[settings.mail_source])}</p>
      <SettingsForm
        form={form}
        fields={FIELDS}
        rename={RENAME}
        submitLabel={t('adminSettings.mail.save')}
        onSubmit={({ password, username, from_name, ...values }) =>
          update.mutateAsync({
            body: { mail: { ...values, username: username || null, from_name: from_name || null, ...(password ? { password } : {}) } },
          })
        }
        extra={
          <>
            <Button variant="secondary" loading={sendTest.isPending} disabled={settings.mail_source === 'none'} onClick={() => void test()}>
              {t('adminSettings.mail.sendTest')}
            </Button>
            {mail && (
              <Button
                variant="secondary"
                onClick={() => void update.mutateAsync({ body: { mail: null } }).then(() => form.reset({ ...defaults, host: '' }))}
              >
                {t('adminSettings.mail.remove')}
              </Button>
            )}
          </>
        }
      >
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_7rem]">
          <TextField label={t('adminSettings.mail.host')} autoComplete="off" error={errors.host?.message} {...form.register('host')} />
          <TextField
            label={t('adminSettings.mail.port')}
            inputMode="numeric"
            autoComplete="off"
            error={errors.port?.message}
            {...form.register('port')}
          />
        </div>
        <label className="flex flex-col gap-1.5 text-sm text-zinc-200">
          <span className="font-medium">{t('adminSettings.mail.encryption')}</span>
          <select
            {...form.register('encryption')}
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            {SMTP_ENCRYPTIONS.map((e) => (
              <option key={e} value={e}>
                {e === 'none' ? t('adminSettings.mail.encryptionNone') : ENCRYPTION_LABELS[e]}
              </option>
            ))}
          </select>
          {errors.encryption?.message && <span className="text-sm text-red-400">{errors.encryption.message}</span>}
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('adminSettings.mail.username')}
            autoComplete="off"
            hint={t('adminSettings.mail.usernameHint')}
            error={errors.username?.message}
            {...form.register('username')}
          />
          <TextField
            label={t('adminSettings.mail.password')}
            type="password"
            autoComplete="new-password"
            hint={mail?.password_set ? t('adminSettings.mail.passwordStored') : t('adminSettings.mail.passwordNew')}
            error={errors.password?.message}
            {...form.register('password')}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('adminSettings.mail.fromAddress')}
            type="email"
            autoComplete="off"
            error={errors.from_address?.message}
            {...form.register('from_address')}
          />
          <TextField label={t('adminSettings.mail.fromName')} autoComplete="off" error={errors.from_name?.message} {...form.register('from_name')} />
        </div>
      </SettingsForm>
      {result && (
        <CheckResult ok={result.ok} className="mt-3">
          {result.text}
        </CheckResult>
      )}
    </Card>
  );
}
