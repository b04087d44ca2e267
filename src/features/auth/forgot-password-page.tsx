import { useState } from 'react';
import { Link } from 'react-router';
import { forgotPasswordRequestSchema } from '../../contract/password-reset';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { applyApiErrors } from '../../lib/form-errors';
import { useContractForm } from '../../lib/use-contract-form';
import { useForgotPassword } from './api';
import { AuthLayout } from './auth-layout';
import { useT } from './messages';

/** Asks for a reset link by mail; the answer never tells whether the address has an account. */
export function ForgotPasswordPage() {
  const t = useT();
  const form = useContractForm(forgotPasswordRequestSchema, { email: '' });
  const forgot = useForgotPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await forgot.mutateAsync(values);
      setSentTo(values.email);
    } catch (error) {
      setFormError(applyApiErrors(error, form.setError, { fields: ['email'] }));
    }
  });

  return (
    <AuthLayout title={t('auth.forgot.title')} description={t('auth.forgot.description')}>
      {sentTo ? (
        <div className="flex flex-col gap-4">
          <p role="status" className="rounded-md bg-sky-950/60 px-3 py-2 text-sm text-sky-200 ring-1 ring-inset ring-sky-900">
            {t('auth.forgot.sent', { email: sentTo })}
          </p>
          <Link to="/auth/login" className="text-sm text-sky-400 hover:text-sky-300 hover:underline">
            {t('auth.backToSignIn')}
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          <FormError message={formError} />
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            maxLength={191}
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" className="mt-2 w-full" loading={forgot.isPending}>
            {t('auth.forgot.submit')}
          </Button>
          <Link to="/auth/login" className="text-center text-sm text-sky-400 hover:text-sky-300 hover:underline">
            {t('auth.backToSignIn')}
          </Link>
        </form>
      )}
    </AuthLayout>
  );
}
