import { lazy, Suspense, useState } from 'react';
import type { PowerSignal, ProcessState } from '../../contract/websocket';
import { Button } from '../../components/ui/button';
import { PermissionHint, useCan } from '../../lib/permissions';
import { usePowerAction } from './api';
import { useT } from './messages';

// The dialog library loads only when someone asks to kill a server, not with every console.
const ConfirmDialog = lazy(() => import('../../components/ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })));

/**
 * Start, restart and stop, each only with its permission. Stop turns into Kill while the server is
 * stopping; Kill asks first. `status` is null while unknown (no socket yet): nothing is disabled then.
 * `blocked` is why no power action can work now (a suspended server), shown on every button.
 */
export function PowerBar({
  uuid,
  status,
  blocked,
  startBlocked = null,
}: {
  uuid: string;
  status: ProcessState | null;
  blocked: string | null;
  /** Why Start alone cannot be offered now (the server's state is unknown), or null. */
  startBlocked?: string | null;
}) {
  const t = useT();
  const canStart = useCan('control.start');
  const canRestart = useCan('control.restart');
  const canStop = useCan('control.stop');
  const power = usePowerAction(uuid);
  const [confirmKill, setConfirmKill] = useState(false);
  // One hint for the buttons the subuser lacks, in the buttons' place when none is left.
  const hint = <PermissionHint permission={['control.start', 'control.restart', 'control.stop']} className="self-center" />;
  if (!canStart && !canRestart && !canStop) return hint;

  const pending = power.isPending ? power.variables : undefined;
  // The last refusal of a start (no bubblewrap…) stays on the button until a start succeeds.
  const startError = power.error && power.variables === 'start' ? power.error.message : null;
  const send = (signal: PowerSignal) => power.mutate(signal);
  const stopping = status === 'stopping';

  return (
    <div role="group" aria-label={t('console.power.label')} className="flex flex-wrap gap-2">
      {canStart && (
        <Button
          variant="primary"
          onClick={() => send('start')}
          loading={pending === 'start'}
          disabled={blocked !== null || startBlocked !== null || (status !== null && status !== 'offline')}
          title={blocked ?? startBlocked ?? startError ?? undefined}
        >
          {t('console.power.start')}
        </Button>
      )}
      {canRestart && (
        <Button
          variant="secondary"
          onClick={() => send('restart')}
          loading={pending === 'restart'}
          disabled={blocked !== null}
          title={blocked ?? undefined}
        >
          {t('console.power.restart')}
        </Button>
      )}
      {canStop &&
        (stopping ? (
          <Button variant="danger" onClick={() => setConfirmKill(true)} loading={pending === 'kill'} disabled={blocked !== null}>
            {t('console.power.kill')}
          </Button>
        ) : (
          <Button
            variant="danger"
            onClick={() => send('stop')}
            loading={pending === 'stop'}
            disabled={blocked !== null || status === 'offline'}
            title={blocked ?? undefined}
          >
            {t('console.power.stop')}
          </Button>
        ))}
      {hint}
      {confirmKill && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={setConfirmKill}
            title={t('console.power.killTitle')}
            description={t('console.power.killDescription')}
            confirmLabel={t('console.power.kill')}
            danger
            mutation={power}
            onConfirm={() => power.mutateAsync('kill')}
          />
        </Suspense>
      )}
    </div>
  );
}
