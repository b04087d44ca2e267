import { useState } from 'react';
import { useT } from './messages';
import { passwordUpdateSchema } from '../../contract/account';
import { Card } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangePassword } from './api';
import { AccountForm } from './account-form';
import { Notice } from './notice';

const empty = { current_password: '', password: '', password_confirmation: '' };

/** A new password; the panel signs out every other session of the account. */
export function PasswordSection() {
  const change = useChangePassword();
  const form = useContractForm(passwordUpdateSchema, empty);
  const { errors } = form.formState;
  const [done, setDone] = useState(false);
  const t = useT();
  return (
    <Card title={t('account.section.password')}>
      <AccountForm
        form={form}
        fields={['current_password', 'password', 'password_confirmation']}
        passwordField="current_password"
        submitLabel={t('account.password.submit')}
        pending={change.isPending}
        error={change.error}
        onSubmit={async (values) => {
          setDone(false);
          await change.mutateAsync(values);
          form.reset(empty);
          setDone(true);
        }}
      >
        <TextField
          label={t('account.password.current')}
          type="password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          {...form.register('current_password')}
        />
        <TextField
          label={t('account.password.new')}
          type="password"
          autoComplete="new-password"
          hint={t('account.password.hint')}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <TextField
          label={t('account.password.confirm')}
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...form.register('password_confirmation')}
        />
      </AccountForm>
      {done && <Notice>{t('account.password.done')}</Notice>}
    </Card>
  );
}
