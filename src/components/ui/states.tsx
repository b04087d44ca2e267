import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/http';
import { t as translate, useT } from '../messages';
import { cn } from './cn';

/** What to say for an API failure that replaces a whole page; a 403, 404 or 409 says what happened and what to do. */
export function describeError(error: unknown): { title: string; detail: string } {
  if (error instanceof ApiError) {
    switch (error.status) {
      case 403:
        return { title: translate('ui.error.forbidden.title'), detail: translate('ui.error.forbidden.detail') };
      case 404:
        return { title: translate('ui.error.notFound.title'), detail: translate('ui.error.notFound.detail') };
      case 409:
        return { title: translate('ui.error.conflict.title'), detail: error.message };
      case 429:
        return { title: translate('ui.error.tooMany.title'), detail: error.message };
      default:
        return { title: translate('ui.error.title'), detail: error.message };
    }
  }
  return { title: translate('ui.error.title'), detail: error instanceof Error ? error.message : translate('ui.error.unexpected') };
}

/** `level={1}` when the error is all the page shows, so the page still has its one h1; `hint` says more under the detail. */
export function ErrorState({ error, action, hint, level = 2 }: { error: unknown; action?: ReactNode; hint?: ReactNode; level?: 1 | 2 }) {
  // Called for its re-render when the language changes; describeError reads the language of the moment.
  const t = useT();
  const { title, detail } = describeError(error);
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div role="alert" className="mx-auto my-10 max-w-lg rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
      <Heading className="text-lg font-semibold text-white">{title}</Heading>
      <p className="mt-2 text-sm text-zinc-400">{detail}</p>
      {hint && <div className="mt-3 flex justify-center">{hint}</div>}
      <div className="mt-4 flex justify-center gap-3">
        {action}
        <Link to="/" className="text-sm font-medium text-sky-400 hover:text-sky-300">
          {t('ui.backToServers')}
        </Link>
      </div>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-700 px-6 py-10 text-center">
      <p className="font-medium text-zinc-200">{title}</p>
      {children && <div className="mt-2 text-sm text-zinc-400">{children}</div>}
    </div>
  );
}

/** What a check said (a connection test, a test mail): read out politely when it passed, at once when it failed. */
export function CheckResult({ ok, children, className }: { ok: boolean; children: ReactNode; className?: string }) {
  return (
    <p
      role={ok ? 'status' : 'alert'}
      className={cn(
        'rounded-md px-3 py-2 text-sm ring-1 ring-inset',
        ok ? 'bg-emerald-950/60 text-emerald-200 ring-emerald-900' : 'bg-red-950/60 text-red-200 ring-red-900',
        className,
      )}
    >
      {children}
    </p>
  );
}
