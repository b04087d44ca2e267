import * as Menu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { useAccount } from '../../app/require-auth';
import { useLogout } from './api';
import { AccountButtonContent, ACCOUNT_BUTTON } from './account-button';
import { useT } from './messages';

const ITEM =
  'flex min-h-9 cursor-default select-none items-center gap-2 rounded-md px-2.5 py-2 text-sm text-zinc-200 outline-none data-[disabled]:text-zinc-500 data-[highlighted]:bg-zinc-800 data-[highlighted]:text-white';

/** The account menu itself (Radix), loaded when the header's button is first used. */
export function AccountMenuPopup() {
  const account = useAccount();
  const logout = useLogout();
  const t = useT();
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while its links and
    // buttons stay focusable (axe: aria-hidden-focus). Escape and a click outside still close it.
    // Opened at once: it is mounted by the first click on the header's plain button.
    <Menu.Root modal={false} defaultOpen>
      <Menu.Trigger className={ACCOUNT_BUTTON}>
        <AccountButtonContent username={account.username} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 min-w-56 max-w-[calc(100vw-1rem)] rounded-lg bg-zinc-900 p-1 shadow-xl shadow-black/40 ring-1 ring-zinc-700"
        >
          <Menu.Label className="px-2.5 py-2 text-xs text-zinc-400">
            {t('auth.menu.signedInAs')}
            <span className="block truncate text-sm font-medium text-zinc-100">{account.email}</span>
          </Menu.Label>
          <Menu.Separator className="my-1 h-px bg-zinc-800" />
          <Menu.Item className={ITEM} asChild>
            <Link to="/account">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-zinc-400" fill="currentColor">
                <path d="M10 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM3.47 15.15a.75.75 0 0 1-.4-.85 7.1 7.1 0 0 1 13.86 0 .75.75 0 0 1-.4.85A15.9 15.9 0 0 1 10 17a15.9 15.9 0 0 1-6.53-1.85Z" />
              </svg>
              {t('auth.menu.account')}
            </Link>
          </Menu.Item>
          <Menu.Item
            className={ITEM}
            disabled={logout.isPending}
            // Keep the menu open while signing out, so a failure is seen where it happened.
            onSelect={(event) => {
              event.preventDefault();
              logout.mutate();
            }}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-zinc-400" fill="currentColor">
              <path
                fillRule="evenodd"
                d="M3 4.25A2.25 2.25 0 0 1 5.25 2h5.5A2.25 2.25 0 0 1 13 4.25v2a.75.75 0 0 1-1.5 0v-2a.75.75 0 0 0-.75-.75h-5.5a.75.75 0 0 0-.75.75v11.5c0 .41.34.75.75.75h5.5a.75.75 0 0 0 .75-.75v-2a.75.75 0 0 1 1.5 0v2A2.25 2.25 0 0 1 10.75 18h-5.5A2.25 2.25 0 0 1 3 15.75V4.25Zm10.47 2.97a.75.75 0 0 1 1.06 0l2.25 2.25a.75.75 0 0 1 0 1.06l-2.25 2.25a.75.75 0 1 1-1.06-1.06l.97-.97H8.75a.75.75 0 0 1 0-1.5h5.69l-.97-.97a.75.75 0 0 1 0-1.06Z"
                clipRule="evenodd"
              />
            </svg>
            {logout.isPending ? t('auth.menu.signingOut') : t('auth.menu.signOut')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
