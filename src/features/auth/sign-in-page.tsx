import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { loginRequestSchema } from '../../contract/auth';
import { safeIntended } from '../../app/paths';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { applyApiErrors, issuesByField } from '../../lib/form-errors';
import { accountQueries } from '../account/api';
import { passwordResetQueries, useFinishSignIn, useLogin } from './api';
import { AuthLayout } from './auth-layout';
import { useT } from './messages';
import { savePendingLogin } from './pending-login';

// Kept small on purpose: this is the first page most visits load (no dialogs, no form library).

const FIELDS = ['user', 'password'] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED = { user: 'auth.signIn.userRequired', password: 'auth.signIn.passwordRequired' } as const;

/** Where a page can leave a message for the sign-in page (e.g. "your code expired") and the account to fill in. */
export interface SignInNotice {
  notice?: string;
  user?: string;
}

export function SignInPage() {
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const { notice, user } = (useLocation().state as SignInNotice | null) ?? {};
  const navigate = useNavigate();
  const t = useT();
  const me = useQuery(accountQueries.me());
  // Only a panel that can send mail offers a reset by mail.
  const canReset = useQuery(passwordResetQueries.status()).data?.mail === true;
  const login = useLogin();
  const finishSignIn = useFinishSignIn();
  const [finishing, setFinishing] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const refs = { user: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  // Already signed in: nothing to do here.
  if (me.isSuccess && !finishing) return <Navigate to={safeIntended(redirect)} replace />;

  function showErrors(next: Partial<Record<Field, string>>, message: string | null) {
    setErrors(next);
    setFormError(message);
    const first = FIELDS.find((f) => next[f]);
    if (first) refs[first].current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending || finishing) return;
    const data = new FormData(event.currentTarget);
    const body = { user: String(data.get('user') ?? '').trim(), password: String(data.get('password') ?? '') };
    const parsed = loginRequestSchema.safeParse(body);
    if (!parsed.success) {
      const byField = issuesByField(parsed.error.issues);
      showErrors({ user: body.user ? byField.user : t(REQUIRED.user), password: body.password ? byField.password : t(REQUIRED.password) }, null);
      return;
    }
    showErrors({}, null);
    try {
      const result = await login.mutateAsync(parsed.data);
      if (result.complete) {
        setFinishing(true);
        await finishSignIn(redirect, result.intended);
      } else {
        savePendingLogin(result.confirmation_token, redirect);
        await navigate({ pathname: '/auth/login/checkpoint', search: redirect ? `?redirect=${encodeURIComponent(redirect)}` : '' });
      }
    } catch (error) {
      const next: Partial<Record<Field, string>> = {};
      const message = applyApiErrors(error, (name: Field, e) => (next[name] = e.message), { fields: FIELDS });
      showErrors(next, message);
    }
  }

  return (
    <AuthLayout title={t('auth.signIn.title')} description={t('auth.signIn.description')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {notice && !formError && (
          <p role="status" className="rounded-md bg-sky-950/60 px-3 py-2 text-sm text-sky-200 ring-1 ring-inset ring-sky-900">
            {notice}
          </p>
        )}
        <FormError message={formError} />
        <TextField
          ref={refs.user}
          name="user"
          label={t('auth.signIn.user')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={user}
          autoFocus={!user}
          required
          maxLength={191}
          error={errors.user}
        />
        <TextField
          ref={refs.password}
          name="password"
          type="password"
          label={t('auth.signIn.password')}
          autoComplete="current-password"
          autoFocus={!!user}
          required
          error={errors.password}
        />
        {canReset && (
          <Link to="/auth/password" className="-mt-2 self-end text-sm text-sky-400 hover:text-sky-300 hover:underline">
            {t('auth.signIn.forgot')}
          </Link>
        )}
        <Button type="submit" className="mt-2 w-full" loading={login.isPending || finishing}>
          {t('auth.signIn.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
