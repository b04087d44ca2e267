import { useState } from 'react';
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
  return (
    <Card title="E-mail address">
      <p className="mb-4 text-sm text-zinc-400">
        Signed in as <span className="font-medium text-zinc-100">{account.username}</span>, with the address{' '}
        <span className="font-medium break-all text-zinc-100">{account.email}</span>.
      </p>
      <AccountForm
        form={form}
        fields={['email', 'password']}
        passwordField="password"
        submitLabel="Change e-mail"
        pending={change.isPending}
        error={change.error}
        onSubmit={async (values) => {
          setDone(null);
          await change.mutateAsync(values);
          form.reset({ email: '', password: '' });
          setDone(values.email);
        }}
      >
        <TextField label="New e-mail address" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
      </AccountForm>
      {done && <Notice>Your e-mail address is now {done}.</Notice>}
    </Card>
  );
}
