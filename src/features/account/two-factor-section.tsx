import { useEffect, useRef, useState } from 'react';
import { useT } from './messages';
import { useSearchParams } from 'react-router';
import { twoFactorDisableSchema, twoFactorEnableSchema } from '../../contract/account';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { FormError, TextField } from '../../components/ui/field';
import { useAccount } from '../../app/require-auth';
import { useContractForm } from '../../lib/use-contract-form';
import { TWO_FACTOR_REQUIRED_PARAM } from '../../lib/two-factor-required';
import { useDisableTwoFactor, useEnableTwoFactor, useTwoFactorSetup } from './api';
import { AccountForm } from './account-form';
import { Notice } from './notice';
import { QrCode } from './qr-code';
import { RecoveryTokensDialog } from './recovery-tokens-dialog';

/** The secret in groups of four, as authenticator apps show it. */
export const groupSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Two-factor sign-in: set up with a QR code or the secret, a code and the password; turned off with the password. */
export function TwoFactorSection() {
  const on = useAccount().use_totp === true;
  const [tokens, setTokens] = useState<string[] | null>(null);
  const [turnedOff, setTurnedOff] = useState(false);
  // Sent here because the panel requires two-factor authentication (`lib/two-factor-required.ts`).
  const required = useSearchParams()[0].has(TWO_FACTOR_REQUIRED_PARAM);
  const t = useT();
  return (
    <Card title={t('account.twoFactor.title')}>
      {required && !on && (
        <p role="alert" className="mb-4 rounded-md bg-amber-950/50 px-3 py-2 text-sm text-amber-200 ring-1 ring-inset ring-amber-800">
          {t('account.twoFactor.required')}
        </p>
      )}
      {on ? (
        <DisableForm onDone={() => setTurnedOff(true)} />
      ) : (
        <>
          {turnedOff && <Notice>{t('account.twoFactor.turnedOff')}</Notice>}
          <Setup onEnabled={setTokens} focusEnable={turnedOff} />
        </>
      )}
      <RecoveryTokensDialog tokens={tokens} onClose={() => setTokens(null)} />
    </Card>
  );
}

/** `focusEnable`: just turned off, so "Enable" takes the focus the gone "Disable" had. */
function Setup({ onEnabled, focusEnable }: { onEnabled: (tokens: string[]) => void; focusEnable: boolean }) {
  const setup = useTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const form = useContractForm(twoFactorEnableSchema, { code: '', password: '' });
  const { errors } = form.formState;
  const data = setup.data?.data;
  const enableButton = useRef<HTMLButtonElement>(null);
  const t = useT();
  // Each step's control replaces the last one's: focus follows rather than falling to <body>.
  useEffect(() => {
    if (focusEnable) enableButton.current?.focus();
  }, [focusEnable]);
  useEffect(() => {
    if (data) form.setFocus('code');
  }, [data, form]);

  if (!data) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-zinc-400">{t('account.twoFactor.off')}</p>
        <FormError message={setup.error?.message} />
        <Button ref={enableButton} onClick={() => setup.mutate()} loading={setup.isPending}>
          {t('account.twoFactor.enable')}
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-400">{t('account.twoFactor.scan')}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode value={data.image_url_data} />
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-zinc-400">{t('account.twoFactor.secret')}</p>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="totp-secret" className="font-mono text-base break-all text-zinc-100">
              {groupSecret(data.secret)}
            </code>
            <CopyButton value={data.secret} label={t('account.twoFactor.copySecret')} />
          </div>
        </div>
      </div>
      <AccountForm
        form={form}
        fields={['code', 'password']}
        passwordField="password"
        submitLabel={t('account.twoFactor.turnOn')}
        pending={enable.isPending}
        error={enable.error}
        onSubmit={async (values) => {
          const tokens = await enable.mutateAsync(values);
          onEnabled(tokens);
        }}
      >
        <TextField
          label={t('account.twoFactor.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="max-w-40"
          error={errors.code?.message}
          {...form.register('code')}
        />
        <TextField
          label={t('account.section.password')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
      </AccountForm>
    </div>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const form = useContractForm(twoFactorDisableSchema, { password: '' });
  const t = useT();
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-400">{t('account.twoFactor.on')}</p>
      <AccountForm
        form={form}
        fields={['password']}
        passwordField="password"
        submitLabel={t('account.twoFactor.disable')}
        danger
        pending={disable.isPending}
        error={disable.error}
        onSubmit={async (values) => {
          await disable.mutateAsync(values);
          onDone();
        }}
      >
        <TextField
          label={t('account.section.password')}
          type="password"
          autoComplete="current-password"
          error={form.formState.errors.password?.message}
          {...form.register('password')}
        />
      </AccountForm>
    </div>
  );
}
