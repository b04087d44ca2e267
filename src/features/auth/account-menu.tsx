import { lazy, Suspense, useState } from 'react';
import { useAccount } from '../../app/require-auth';

export const ACCOUNT_BUTTON =
  'flex min-h-9 max-w-[60vw] items-center gap-2 rounded-md px-2 py-1 text-sm font-medium text-zinc-200 hover:bg-zinc-800 hover:text-white data-[state=open]:bg-zinc-800';

const load = () => import('./account-menu-popup');
const AccountMenuPopup = lazy(() => load().then((m) => ({ default: m.AccountMenuPopup })));

export function AccountButtonContent({ username }: { username: string }) {
  return (
    <>
      <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-sky-900 text-xs font-semibold text-sky-100">
        {(username[0] ?? '?').toUpperCase()}
      </span>
      <span className="truncate">{username}</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-400" fill="currentColor">
        <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
      </svg>
    </>
  );
}

/**
 * The header's account button: who is signed in, and the way out. The menu library is not part
 * of every page's first load: the button is plain until it is first used (hovering or focusing it
 * starts loading the menu), then the Radix menu takes its place, open.
 */
export function AccountMenu() {
  const account = useAccount();
  const [used, setUsed] = useState(false);
  const plain = (
    <button
      type="button"
      className={ACCOUNT_BUTTON}
      aria-haspopup="menu"
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={() => setUsed(true)}
    >
      <AccountButtonContent username={account.username} />
    </button>
  );
  if (!used) return plain;
  return (
    <Suspense fallback={plain}>
      <AccountMenuPopup />
    </Suspense>
  );
}
