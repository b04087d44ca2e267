import { useT } from '../messages';
import { Button } from './button';
import { cn } from './cn';
import { CopyButton } from './copy-button';

/**
 * A secret the panel shows once (a new API key): the secret to copy, and "Done", which hides it.
 * `onDone` must move focus somewhere that stays (the button that made it), since "Done" goes away
 * with the secret and focus would otherwise fall to <body>.
 */
export function OneTimeSecret({ secret, testId, onDone, className }: { secret: string; testId: string; onDone: () => void; className?: string }) {
  const t = useT();
  return (
    <div role="status" className={cn('space-y-2 rounded-md bg-amber-950/50 p-3 ring-1 ring-amber-800 ring-inset', className)}>
      <p className="text-sm font-medium text-amber-200">{t('ui.secret.once')}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="font-mono text-sm break-all text-zinc-100">
          {secret}
        </code>
        <CopyButton value={secret} label={t('ui.secret.copy')} />
      </div>
      <Button size="sm" variant="secondary" onClick={onDone}>
        {t('ui.done')}
      </Button>
    </div>
  );
}
