import { lazy, Suspense, useState } from 'react';
import { useAccount } from '../../app/require-auth';
import { ACCOUNT_BUTTON, AccountButtonContent } from './account-button';

const load = () => import('./account-menu-popup');
const AccountMenuPopup = lazy(() => load().then((m) => ({ default: m.AccountMenuPopup })));

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
