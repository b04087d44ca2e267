import { createContext, useContext, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Account } from '../contract/account';
import { accountQueries } from '../features/account/api';
import { PageSpinner } from '../components/ui/spinner';
import { ErrorState } from '../components/ui/states';
import { preferredLocale } from '../lib/i18n/locales';
import { changeLocale } from '../lib/i18n/runtime';
import { setThemeChoice } from '../lib/theme';
import { signInPath } from './paths';

const AccountContext = createContext<Account | null>(null);

/** The signed-in account; only usable below RequireAuth. */
export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount outside RequireAuth');
  return account;
}

/** Pages below need a signed-in user; otherwise go to sign-in and come back afterwards. */
export function RequireAuth() {
  const location = useLocation();
  const me = useQuery(accountQueries.me());
  // The account's theme wins over this browser's and is kept here for the next visit; a panel
  // that stores none (a real Pterodactyl) leaves the browser's choice.
  const theme = me.data?.theme;
  useEffect(() => {
    if (theme) setThemeChoice(theme);
  }, [theme]);
  const language = me.data?.language;
  // The account's language, once it is known (see preferredLocale for an account left at `en`).
  useEffect(() => {
    if (language !== undefined) void changeLocale(preferredLocale(language));
  }, [language]);
  if (me.isPending) return <PageSpinner />;
  if (me.isError) {
    if (me.error.status === 401) return <Navigate to={signInPath(location.pathname + location.search + location.hash)} replace />;
    return <ErrorState error={me.error} level={1} />;
  }
  return (
    <AccountContext.Provider value={me.data}>
      <Outlet />
    </AccountContext.Provider>
  );
}
