import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { checkpointRequestSchema, type CheckpointRequest } from '../../contract/auth';
import { signInPath } from '../../app/paths';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { ApiError } from '../../lib/http';
import { applyApiErrors, issuesByField } from '../../lib/form-errors';
import { useCheckpoint, useFinishSignIn } from './api';
import { AuthLayout } from './auth-layout';
import { t as translate, useT } from './messages';
import { clearPendingLogin, readPendingLogin, type PendingLogin } from './pending-login';
import type { SignInNotice } from './sign-in-page';

type Mode = 'code' | 'recovery';
const FIELD: Record<Mode, 'authentication_code' | 'recovery_token'> = { code: 'authentication_code', recovery: 'recovery_token' };

/**
 * The second login step. The pending login lives in sessionStorage, so a reload keeps
 * this page working until the token expires; then, or without one, the user starts over.
 */
export function CheckpointPage() {
  const [params] = useSearchParams();
  const t = useT();
  const [pending] = useState<PendingLogin | null>(() => readPendingLogin());
  const [expired, setExpired] = useState<string | null>(pending ? null : translate('auth.checkpoint.missing'));
  if (!pending || expired) {
    clearPendingLogin();
    const state: SignInNotice = { notice: expired ?? t('auth.checkpoint.missing') };
    return <Navigate to={signInPath(pending?.redirect ?? params.get('redirect') ?? undefined)} state={state} replace />;
  }
  return (
    <AuthLayout title={t('auth.checkpoint.title')} description={t('auth.checkpoint.description')}>
      <CheckpointForm pending={pending} onExpired={setExpired} />
    </AuthLayout>
  );
}

function CheckpointForm({ pending, onExpired }: { pending: PendingLogin; onExpired: (message: string) => void }) {
  const checkpoint = useCheckpoint();
  const finishSignIn = useFinishSignIn();
  const t = useT();
  const [mode, setMode] = useState<Mode>('code');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const toggled = useRef(false);
  // The value the server refused: sending it again (Enter) would only spend an attempt.
  const rejected = useRef<string | null>(null);
  const busy = checkpoint.isPending || finishing;

  // The server forgets the token after five minutes; say so instead of failing on submit.
  useEffect(() => {
    const timer = window.setTimeout(() => onExpired(translate('auth.checkpoint.expired')), Math.max(0, pending.expiresAt - Date.now()));
    return () => window.clearTimeout(timer);
  }, [pending.expiresAt, onExpired]);

  // Focus follows the toggle, so keyboard and screen-reader users land in the new field.
  useEffect(() => {
    if (toggled.current) inputRef.current?.focus();
  }, [mode]);

  function switchMode() {
    toggled.current = true;
    setMode((m) => (m === 'code' ? 'recovery' : 'code'));
    rejected.current = null;
    setFieldError(null);
    setFormError(null);
  }

  async function submit(value: string) {
    if (busy) return;
    if (value !== '' && value === rejected.current) {
      inputRef.current?.select();
      return;
    }
    const body: CheckpointRequest =
      mode === 'code'
        ? { confirmation_token: pending.token, authentication_code: value }
        : { confirmation_token: pending.token, recovery_token: value.trim() };
    const parsed = checkpointRequestSchema.safeParse(body);
    if (!parsed.success) {
      const byField = issuesByField(parsed.error.issues);
      showError(
        value === ''
          ? mode === 'code'
            ? t('auth.checkpoint.codeRequired')
            : t('auth.checkpoint.recoveryRequired')
          : (byField[FIELD[mode]] ?? t('auth.checkpoint.invalid')),
        null,
      );
      return;
    }
    setFieldError(null);
    setFormError(null);
    try {
      const result = await checkpoint.mutateAsync(parsed.data);
      clearPendingLogin();
      setFinishing(true);
      await finishSignIn(pending.redirect, result.intended);
    } catch (error) {
      onFailure(error, value);
    }
  }

  function onFailure(error: unknown, sent: string) {
    if (error instanceof ApiError && error.status === 400 && Object.keys(error.fieldErrors()).length === 0 && /expired/i.test(error.message)) {
      onExpired(t('auth.checkpoint.expired'));
      return;
    }
    const placed: { message?: string } = {};
    const message = applyApiErrors(error, (_name, e) => (placed.message = e.message), { fields: [FIELD[mode]] });
    // A reference panel sends a wrong code as a plain 400 without `source.field`: it is still about the field.
    const plain = placed.message === undefined && error instanceof ApiError && error.status === 400;
    // Only a refusal of the value itself blocks sending it again; a network error does not.
    if (plain || placed.message !== undefined) rejected.current = sent;
    if (plain) showError(error.message, null);
    else showError(placed.message ?? null, message);
  }

  function showError(field: string | null, form: string | null) {
    setFieldError(field);
    setFormError(form);
    if (field) inputRef.current?.select();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = mode === 'code' ? code : String(new FormData(event.currentTarget).get('recovery_token') ?? '');
    void submit(value);
  }

  function onCodeChange(raw: string) {
    // Pasted codes often come as "123 456"; keep the digits.
    const digits = raw.replace(/\D/g, '').slice(0, 6);
    setCode(digits);
    if (fieldError) setFieldError(null);
    // Six digits is a complete code: submit without making the user find the button.
    if (digits.length === 6 && digits !== code) void submit(digits);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy || undefined}>
      <FormError message={formError} />
      {mode === 'code' ? (
        <TextField
          key="code"
          ref={inputRef}
          name="authentication_code"
          label={t('auth.checkpoint.code')}
          hint={t('auth.checkpoint.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          autoFocus
          value={code}
          onChange={(e) => onCodeChange(e.target.value)}
          error={fieldError ?? undefined}
          className="[&_input]:text-center [&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.4em]"
        />
      ) : (
        <TextField
          key="recovery"
          ref={inputRef}
          name="recovery_token"
          label={t('auth.checkpoint.recovery')}
          hint={t('auth.checkpoint.recoveryHint')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={64}
          error={fieldError ?? undefined}
          className="[&_input]:font-mono"
        />
      )}
      <Button type="submit" className="w-full" loading={busy}>
        {t('auth.checkpoint.submit')}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
        <button type="button" onClick={switchMode} className="rounded font-medium text-sky-400 hover:text-sky-300 hover:underline">
          {mode === 'code' ? t('auth.checkpoint.useRecovery') : t('auth.checkpoint.useCode')}
        </button>
        <Link
          to={signInPath(pending.redirect ?? undefined)}
          replace
          onClick={clearPendingLogin}
          className="rounded text-zinc-400 hover:text-zinc-200 hover:underline"
        >
          {t('auth.backToSignIn')}
        </Link>
      </div>
    </form>
  );
}
