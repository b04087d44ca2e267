import { useState } from 'react';
import * as z from 'zod/mini';
import { mailSettingsInput, SMTP_ENCRYPTIONS, type PanelSettings } from '../../contract/admin-settings';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { CheckResult } from '../../components/ui/states';
import { useContractForm } from '../../lib/use-contract-form';
import { useSendTestMail, useUpdateSettings } from './api';
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
const ENCRYPTION_LABELS = { none: 'None', starttls: 'STARTTLS', tls: 'TLS (SMTPS)' } as const;

const SOURCE: Record<PanelSettings['mail_source'], string> = {
  settings: 'Mail is sent with the settings below.',
  environment: 'Mail is sent through SMTP_URL from the environment; settings saved here take its place.',
  none: 'No mail server is set: password resets and invitations are not mailed.',
};

/** The SMTP server the panel sends mail through, and a test mail to your own address. */
export function MailSettingsCard({ settings }: { settings: PanelSettings }) {
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
      setResult({ ok: true, text: `A test e-mail was sent to ${sent.attributes.to}.` });
    } catch (error) {
      setResult({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <Card title="Mail">
      <p className="mb-3 text-sm text-zinc-400">{SOURCE[settings.mail_source]}</p>
      <SettingsForm
        form={form}
        fields={FIELDS}
        rename={RENAME}
        submitLabel="Save mail settings"
        onSubmit={({ password, username, from_name, ...values }) =>
          update.mutateAsync({
            body: { mail: { ...values, username: username || null, from_name: from_name || null, ...(password ? { password } : {}) } },
          })
        }
        extra={
          <>
            <Button variant="secondary" loading={sendTest.isPending} disabled={settings.mail_source === 'none'} onClick={() => void test()}>
              Send test e-mail
            </Button>
            {mail && (
              <Button
                variant="secondary"
                onClick={() => void update.mutateAsync({ body: { mail: null } }).then(() => form.reset({ ...defaults, host: '' }))}
              >
                Remove mail settings
              </Button>
            )}
          </>
        }
      >
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_7rem]">
          <TextField label="SMTP host" autoComplete="off" error={errors.host?.message} {...form.register('host')} />
          <TextField label="Port" inputMode="numeric" autoComplete="off" error={errors.port?.message} {...form.register('port')} />
        </div>
        <label className="flex flex-col gap-1.5 text-sm text-zinc-200">
          <span className="font-medium">Encryption</span>
          <select
            {...form.register('encryption')}
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            {SMTP_ENCRYPTIONS.map((e) => (
              <option key={e} value={e}>
                {ENCRYPTION_LABELS[e]}
              </option>
            ))}
          </select>
          {errors.encryption?.message && <span className="text-sm text-red-400">{errors.encryption.message}</span>}
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="SMTP username"
            autoComplete="off"
            hint="Empty: no sign-in."
            error={errors.username?.message}
            {...form.register('username')}
          />
          <TextField
            label="SMTP password"
            type="password"
            autoComplete="new-password"
            hint={mail?.password_set ? 'A password is stored; leave empty to keep it.' : 'Never shown again once saved.'}
            error={errors.password?.message}
            {...form.register('password')}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="From address" type="email" autoComplete="off" error={errors.from_address?.message} {...form.register('from_address')} />
          <TextField label="From name" autoComplete="off" error={errors.from_name?.message} {...form.register('from_name')} />
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
