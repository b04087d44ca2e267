import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { resetPasswordRequestSchema } from '../../contract/password-reset';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { applyApiErrors } from '../../lib/form-errors';
import { useContractForm } from '../../lib/use-contract-form';
import { useResetPassword } from './api';
import { AuthLayout } from './auth-layout';
import { useT } from './messages';
import type { SignInNotice } from './sign-in-page';

const FIELDS = ['email', 'password', 'password_confirmation'] as const;

/**
 * The mailed link's page (`/auth/password/reset/:token?email=…`): a new password, then sign in. An
 * invite's link (`&invite=1`) sets a new account's first password, and says so rather than "reset".
 */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useT();
  const invite = params.get('invite') === '1';
  const form = useContractForm(resetPasswordRequestSchema, { token, email: params.get('email') ?? '', password: '', password_confirmation: '' });
  const reset = useResetPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await reset.mutateAsync({ ...values, token });
      // The address goes along to fill the sign-in form; the password and token never do.
      const notice = invite ? t('auth.reset.inviteDone') : t('auth.reset.done');
      const state: SignInNotice = { notice, user: values.email };
      await navigate('/auth/login', { replace: true, state });
    } catch (error) {
      setFormError(applyApiErrors(error, form.setError, { fields: FIELDS }));
    }
  });

  return (
    <AuthLayout
      title={invite ? t('auth.reset.inviteTitle') : t('auth.reset.title')}
      description={invite ? t('auth.reset.inviteDescription') : t('auth.reset.description')}
    >
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <FormError message={formError} />
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={191}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <TextField
          label={t('auth.reset.password')}
          type="password"
          autoComplete="new-password"
          autoFocus
          error={errors.password?.message}
          {...form.register('password')}
        />
        <TextField
          label={t('auth.reset.confirm')}
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...form.register('password_confirmation')}
        />
        <Button type="submit" className="mt-2 w-full" loading={reset.isPending}>
          {t('auth.reset.submit')}
        </Button>
        {formError && (
          <Link to="/auth/password" className="text-center text-sm text-sky-400 hover:text-sky-300 hover:underline">
            {t('auth.reset.newLink')}
          </Link>
        )}
      </form>
    </AuthLayout>
  );
}
