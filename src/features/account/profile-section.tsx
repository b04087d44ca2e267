import { useState } from 'react';
import { T, useT } from './messages';
import { emailUpdateSchema } from '../../contract/account';
import { Card } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { useAccount } from '../../app/require-auth';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangeEmail } from './api';
import { AccountForm } from './account-form';
import { Notice } from './notice';

/** The account's e-mail address, changed with the current password. */
export function ProfileSection() {
  const account = useAccount();
  const change = useChangeEmail();
  const form = useContractForm(emailUpdateSchema, { email: '', password: '' });
  const { errors } = form.formState;
  const [done, setDone] = useState<string | null>(null);
  const t = useT();
  return (
    <Card title={t('account.email.title')}>
      <p className="mb-4 text-sm text-zinc-400">
        <T
          k="account.email.current"
          values={{ username: account.username, email: account.email }}
          components={{ 0: <span className="font-medium text-zinc-100" />, 1: <span className="font-medium break-all text-zinc-100" /> }}
        />
      </p>
      <AccountForm
        form={form}
        fields={['email', 'password']}
        passwordField="password"
        submitLabel={t('account.email.submit')}
        pending={change.isPending}
        error={change.error}
        onSubmit={async (values) => {
          setDone(null);
          await change.mutateAsync(values);
          form.reset({ email: '', password: '' });
          setDone(values.email);
        }}
      >
        <TextField label={t('account.email.new')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label={t('account.password.current')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
      </AccountForm>
      {done && <Notice>{t('account.email.done', { email: done })}</Notice>}
    </Card>
  );
}
